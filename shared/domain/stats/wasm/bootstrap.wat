;; Session-cluster bootstrap replicates (shared/domain/stats/bootstrap.ts): the WebAssembly form of
;; `bootstrapReplicatesJs`, which is the specification. Same mulberry32 stream, same session index per draw, same
;; floating-point operations in the same order, so every replicate r is bit-for-bit the one the JS loop computes
;; (test/unit/stats/bootstrap-kernel.test.ts). Assembled with wabt by `npx tsx scripts/build-wasm.ts` into
;; bootstrap.wasm.ts; a unit test checks that the committed bytes are this source's.
;;
;; Memory layout (chosen by the caller):
;;   [0, 48·k)              per session i, 6 f64: n, Σdx, Σdy, Σdx², Σdy², Σdxdy (deviations from the global means)
;;   [out, out + 8·valid)   the defined replicates r, in resample order
;;
;; One draw, as in the JS loop:
;;   state += 0x6d2b79f5; t = imul(state ^ state>>>15, state | 1); t ^= t + imul(t ^ t>>>7, t | 61)
;;   row = floor(((t ^ t>>>14) >>> 0) / 2^32 · k), computed as trunc(((t ^ t>>>14) >>> 0) · (k · 2^-32)): scaling
;;   by a power of two is exact, so u32 · (k · 2^-32) is the same single rounding of u32·k/2^32 as the JS's
;;   (u32 / 2^32) · k, and truncation is floor for a value ≥ 0 (and it is < k)
;;   add the row's 6 values to the resample's sums, two lanes at a time (f64x2: each lane is its own IEEE sum, in
;;   the same order as in the JS)
;; The first report of a process runs this function as Liftoff (baseline) code, which spills its values at every
;; loop back edge: the draw is written out four times per loop iteration (the second loop draws the rest, k mod 4). CPU time of 1,000 × 1,000 draws, Liftoff only: 4.7 ms plain, 3.7 ms unrolled, 3.3 ms with
;; the scale folded into k, 2.55 ms with the sums in f64x2 lanes (the JS loop before tier-up: about 15 ms).
(module
  (memory (export "memory") 1)

  ;; Draws `resamples` resamples of k sessions each and writes every defined r to `out`; returns how many.
  (func (export "replicates") (param $k i32) (param $resamples i32) (param $seed i32) (param $out i32) (result i32)
    (local $b i32) (local $j i32) (local $state i32) (local $t i32) (local $o i32) (local $valid i32)
    (local $kf f64) ;; k · 2^-32
    (local $n f64) (local $sx f64) (local $sy f64) (local $sxx f64) (local $syy f64) (local $sxy f64)
    (local $v0 v128) (local $v1 v128) (local $v2 v128) ;; sums (n, Σdx), (Σdy, Σdx²), (Σdy², Σdxdy)
    (local $m2x f64) (local $m2y f64)
    (local.set $kf (f64.mul (f64.convert_i32_u (local.get $k)) (f64.const 0x1p-32)))
    (local.set $state (local.get $seed))
    (block $done
      (loop $resample
        (br_if $done (i32.ge_u (local.get $b) (local.get $resamples)))
        (local.set $v0 (v128.const f64x2 0 0))
        (local.set $v1 (v128.const f64x2 0 0))
        (local.set $v2 (v128.const f64x2 0 0))
        (local.set $j (i32.const 0))
        (block $drawn4
          (loop $draw4
            (br_if $drawn4 (i32.gt_u (i32.add (local.get $j) (i32.const 4)) (local.get $k)))
            (local.set $state (i32.add (local.get $state) (i32.const 0x6d2b79f5)))
            (local.set $t (i32.mul (i32.xor (local.get $state) (i32.shr_u (local.get $state) (i32.const 15))) (i32.or (local.get $state) (i32.const 1))))
            (local.set $t (i32.xor (local.get $t) (i32.add (local.get $t) (i32.mul (i32.xor (local.get $t) (i32.shr_u (local.get $t) (i32.const 7))) (i32.or (local.get $t) (i32.const 61))))))
            (local.set $o (i32.mul (i32.trunc_f64_u (f64.mul (f64.convert_i32_u (i32.xor (local.get $t) (i32.shr_u (local.get $t) (i32.const 14)))) (local.get $kf))) (i32.const 48)))
            (local.set $v0 (f64x2.add (local.get $v0) (v128.load (local.get $o))))
            (local.set $v1 (f64x2.add (local.get $v1) (v128.load offset=16 (local.get $o))))
            (local.set $v2 (f64x2.add (local.get $v2) (v128.load offset=32 (local.get $o))))
            (local.set $state (i32.add (local.get $state) (i32.const 0x6d2b79f5)))
            (local.set $t (i32.mul (i32.xor (local.get $state) (i32.shr_u (local.get $state) (i32.const 15))) (i32.or (local.get $state) (i32.const 1))))
            (local.set $t (i32.xor (local.get $t) (i32.add (local.get $t) (i32.mul (i32.xor (local.get $t) (i32.shr_u (local.get $t) (i32.const 7))) (i32.or (local.get $t) (i32.const 61))))))
            (local.set $o (i32.mul (i32.trunc_f64_u (f64.mul (f64.convert_i32_u (i32.xor (local.get $t) (i32.shr_u (local.get $t) (i32.const 14)))) (local.get $kf))) (i32.const 48)))
            (local.set $v0 (f64x2.add (local.get $v0) (v128.load (local.get $o))))
            (local.set $v1 (f64x2.add (local.get $v1) (v128.load offset=16 (local.get $o))))
            (local.set $v2 (f64x2.add (local.get $v2) (v128.load offset=32 (local.get $o))))
            (local.set $state (i32.add (local.get $state) (i32.const 0x6d2b79f5)))
            (local.set $t (i32.mul (i32.xor (local.get $state) (i32.shr_u (local.get $state) (i32.const 15))) (i32.or (local.get $state) (i32.const 1))))
            (local.set $t (i32.xor (local.get $t) (i32.add (local.get $t) (i32.mul (i32.xor (local.get $t) (i32.shr_u (local.get $t) (i32.const 7))) (i32.or (local.get $t) (i32.const 61))))))
            (local.set $o (i32.mul (i32.trunc_f64_u (f64.mul (f64.convert_i32_u (i32.xor (local.get $t) (i32.shr_u (local.get $t) (i32.const 14)))) (local.get $kf))) (i32.const 48)))
            (local.set $v0 (f64x2.add (local.get $v0) (v128.load (local.get $o))))
            (local.set $v1 (f64x2.add (local.get $v1) (v128.load offset=16 (local.get $o))))
            (local.set $v2 (f64x2.add (local.get $v2) (v128.load offset=32 (local.get $o))))
            (local.set $state (i32.add (local.get $state) (i32.const 0x6d2b79f5)))
            (local.set $t (i32.mul (i32.xor (local.get $state) (i32.shr_u (local.get $state) (i32.const 15))) (i32.or (local.get $state) (i32.const 1))))
            (local.set $t (i32.xor (local.get $t) (i32.add (local.get $t) (i32.mul (i32.xor (local.get $t) (i32.shr_u (local.get $t) (i32.const 7))) (i32.or (local.get $t) (i32.const 61))))))
            (local.set $o (i32.mul (i32.trunc_f64_u (f64.mul (f64.convert_i32_u (i32.xor (local.get $t) (i32.shr_u (local.get $t) (i32.const 14)))) (local.get $kf))) (i32.const 48)))
            (local.set $v0 (f64x2.add (local.get $v0) (v128.load (local.get $o))))
            (local.set $v1 (f64x2.add (local.get $v1) (v128.load offset=16 (local.get $o))))
            (local.set $v2 (f64x2.add (local.get $v2) (v128.load offset=32 (local.get $o))))
            (local.set $j (i32.add (local.get $j) (i32.const 4)))
            (br $draw4)))
        (block $drawn
          (loop $draw
            (br_if $drawn (i32.ge_u (local.get $j) (local.get $k)))
            (local.set $state (i32.add (local.get $state) (i32.const 0x6d2b79f5)))
            (local.set $t (i32.mul (i32.xor (local.get $state) (i32.shr_u (local.get $state) (i32.const 15))) (i32.or (local.get $state) (i32.const 1))))
            (local.set $t (i32.xor (local.get $t) (i32.add (local.get $t) (i32.mul (i32.xor (local.get $t) (i32.shr_u (local.get $t) (i32.const 7))) (i32.or (local.get $t) (i32.const 61))))))
            (local.set $o (i32.mul (i32.trunc_f64_u (f64.mul (f64.convert_i32_u (i32.xor (local.get $t) (i32.shr_u (local.get $t) (i32.const 14)))) (local.get $kf))) (i32.const 48)))
            (local.set $v0 (f64x2.add (local.get $v0) (v128.load (local.get $o))))
            (local.set $v1 (f64x2.add (local.get $v1) (v128.load offset=16 (local.get $o))))
            (local.set $v2 (f64x2.add (local.get $v2) (v128.load offset=32 (local.get $o))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $draw)))
        (local.set $n (f64x2.extract_lane 0 (local.get $v0)))
        (local.set $sx (f64x2.extract_lane 1 (local.get $v0)))
        (local.set $sy (f64x2.extract_lane 0 (local.get $v1)))
        (local.set $sxx (f64x2.extract_lane 1 (local.get $v1)))
        (local.set $syy (f64x2.extract_lane 0 (local.get $v2)))
        (local.set $sxy (f64x2.extract_lane 1 (local.get $v2)))
        ;; pearsonFromMoments: null unless n ≥ 2, m2x > 0 and m2y > 0; r = cxy / sqrt(m2x·m2y) clamped to [−1, 1]
        (local.set $m2x (f64.sub (local.get $sxx) (f64.div (f64.mul (local.get $sx) (local.get $sx)) (local.get $n))))
        (local.set $m2y (f64.sub (local.get $syy) (f64.div (f64.mul (local.get $sy) (local.get $sy)) (local.get $n))))
        (if (i32.eqz
              (i32.or (f64.lt (local.get $n) (f64.const 2))
                (i32.or (i32.eqz (f64.gt (local.get $m2x) (f64.const 0)))
                  (i32.eqz (f64.gt (local.get $m2y) (f64.const 0))))))
          (then
            (f64.store
              (i32.add (local.get $out) (i32.shl (local.get $valid) (i32.const 3)))
              (f64.max (f64.const -1)
                (f64.min (f64.const 1)
                  (f64.div
                    (f64.sub (local.get $sxy) (f64.div (f64.mul (local.get $sx) (local.get $sy)) (local.get $n)))
                    (f64.sqrt (f64.mul (local.get $m2x) (local.get $m2y)))))))
            (local.set $valid (i32.add (local.get $valid) (i32.const 1)))))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $resample)))
    (local.get $valid))
)
