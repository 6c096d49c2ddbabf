;; Window statistics accumulation (shared/domain/council/window-kernel.ts): the numeric part of
;; `windowStatsFromRecordsJs` (window.ts), which is the specification. The JavaScript side reads the records once,
;; applies the filters and turns the strings into small integers (session, (session, model) pair, reviewer,
;; position); this kernel then does every floating-point update in record order with the same operations in the
;; same order, so the statistics are bit-for-bit those of the JS implementation
;; (test/unit/council/window-kernel.test.ts). Assembled with wabt by `npx tsx scripts/build-wasm.ts` into
;; window.wasm.ts; a unit test checks that the committed bytes are this source's.
;;
;; The caller writes a header of i32 values at byte `h` (layout below, each "→" an offset in bytes) and the inputs;
;; fresh memory is zero, the kernel sets the other initial values itself.
;;   h+0  n       records                       h+4  S     sessions          h+8  K      positions
;;   h+12 → X     f64[n] response_length_chars  h+16 → Y  f64[n] score_normalized
;;   h+20 → MS    f64[n] timestamp, epoch ms    h+24 → SESS i32[n] session   h+28 → PAIR i32[n] (session, model)
;;   h+32 → REV   i32[n] reviewer, −1 for a self-vote                        h+36 → POS  i32[n] position, −1 for none
;;   h+40 → KEEP  i32[S] 1 when the session is in the window (maxSessions)
;;   h+44 → SACC  f64[8·S] per session: n, meanX, meanY, m2x, m2y, cxy, first ms, last ms (peer records)
;;   h+48 → PACC  f64[4·pairs] per pair: self n, self mean, peer n, peer mean
;;   h+52 → SELFORD i32[pairs] pairs in the order of their first self-vote
;;   h+56 → RACC  f64[3·reviewers] per reviewer: n, mean, m2       h+60 → REVORD i32 reviewers by first peer record
;;   h+64 → KACC  f64[3·K] per position: n, mean, m2               h+68 → POSORD i32 positions by first peer record
;;   h+72 → SPOS  f64[2·S·K] per (session, position): count, score sum
;;   h+76 → CROSS f64[K·K] Σ_g e_ga·e_gb for a ≤ b (row a, column b)  h+80 → TOG i32[K·K] 1 when a and b met in a session
;;   h+84 → E     f64[K] scratch                                    h+88 → SELF f64[3] self-vote inflation: n, mean, m2
;;   outputs: h+92 self-vote pairs, h+96 reviewers, h+100 positions (lengths of the order lists), h+104 clusters
(module
  (memory (import "env" "memory") 1)

  ;; Welford update of (n, mean, m2) at $a with $v, as addUni in window.ts; returns 1 when n was 0.
  (func $uni (param $a i32) (param $v f64) (result i32)
    (local $n f64) (local $mean f64) (local $d f64)
    (local.set $n (f64.add (f64.load (local.get $a)) (f64.const 1)))
    (f64.store (local.get $a) (local.get $n))
    (local.set $d (f64.sub (local.get $v) (f64.load offset=8 (local.get $a))))
    (local.set $mean (f64.add (f64.load offset=8 (local.get $a)) (f64.div (local.get $d) (local.get $n))))
    (f64.store offset=8 (local.get $a) (local.get $mean))
    (f64.store offset=16 (local.get $a)
      (f64.add (f64.load offset=16 (local.get $a)) (f64.mul (local.get $d) (f64.sub (local.get $v) (local.get $mean)))))
    (f64.eq (local.get $n) (f64.const 1)))

  ;; Pass 2 of windowStatsFromRecordsJs: every record of a kept session, in input order.
  (func $accumulate (param $h i32)
    (local $i i32) (local $n i32) (local $S i32) (local $K i32) (local $c i32)
    (local $X i32) (local $Y i32) (local $MS i32) (local $SESS i32) (local $PAIR i32) (local $REV i32) (local $POS i32)
    (local $KEEP i32) (local $SACC i32) (local $PACC i32) (local $SELFORD i32) (local $RACC i32) (local $REVORD i32)
    (local $KACC i32) (local $POSORD i32) (local $SPOS i32)
    (local $s i32) (local $p i32) (local $r i32) (local $k i32) (local $a i32)
    (local $nSelf i32) (local $nRev i32) (local $nPos i32)
    (local $x f64) (local $y f64) (local $ms f64) (local $cnt f64) (local $mean f64)
    (local $sn f64) (local $mx f64) (local $my f64) (local $dx f64) (local $dy f64)
    (local.set $n (i32.load (local.get $h)))
    (local.set $S (i32.load offset=4 (local.get $h)))
    (local.set $K (i32.load offset=8 (local.get $h)))
    (local.set $X (i32.load offset=12 (local.get $h)))
    (local.set $Y (i32.load offset=16 (local.get $h)))
    (local.set $MS (i32.load offset=20 (local.get $h)))
    (local.set $SESS (i32.load offset=24 (local.get $h)))
    (local.set $PAIR (i32.load offset=28 (local.get $h)))
    (local.set $REV (i32.load offset=32 (local.get $h)))
    (local.set $POS (i32.load offset=36 (local.get $h)))
    (local.set $KEEP (i32.load offset=40 (local.get $h)))
    (local.set $SACC (i32.load offset=44 (local.get $h)))
    (local.set $PACC (i32.load offset=48 (local.get $h)))
    (local.set $SELFORD (i32.load offset=52 (local.get $h)))
    (local.set $RACC (i32.load offset=56 (local.get $h)))
    (local.set $REVORD (i32.load offset=60 (local.get $h)))
    (local.set $KACC (i32.load offset=64 (local.get $h)))
    (local.set $POSORD (i32.load offset=68 (local.get $h)))
    (local.set $SPOS (i32.load offset=72 (local.get $h)))

    ;; Initial values other than 0: first = +∞, last = −∞ per session; score sums per (session, position) start at
    ;; −0, the additive identity, so the first addition gives the score itself (the JS pushes the first score).
    (local.set $i (i32.const 0))
    (block $sessionsSet
      (loop $initSessions
        (br_if $sessionsSet (i32.ge_u (local.get $i) (local.get $S)))
        (local.set $a (i32.add (local.get $SACC) (i32.shl (local.get $i) (i32.const 6))))
        (f64.store offset=48 (local.get $a) (f64.const inf))
        (f64.store offset=56 (local.get $a) (f64.const -inf))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $initSessions)))
    (local.set $c (i32.mul (local.get $S) (local.get $K)))
    (local.set $i (i32.const 0))
    (block $sumsSet
      (loop $initSums
        (br_if $sumsSet (i32.ge_u (local.get $i) (local.get $c)))
        (f64.store offset=8 (i32.add (local.get $SPOS) (i32.shl (local.get $i) (i32.const 4))) (f64.const -0))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $initSums)))

    (local.set $i (i32.const 0))
    (block $done
      (loop $record
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $s (i32.load (i32.add (local.get $SESS) (i32.shl (local.get $i) (i32.const 2)))))
        (block $next
          (br_if $next (i32.eqz (i32.load (i32.add (local.get $KEEP) (i32.shl (local.get $s) (i32.const 2))))))
          (local.set $y (f64.load (i32.add (local.get $Y) (i32.shl (local.get $i) (i32.const 3)))))
          (local.set $p (i32.load (i32.add (local.get $PAIR) (i32.shl (local.get $i) (i32.const 2)))))
          (local.set $a (i32.add (local.get $PACC) (i32.shl (local.get $p) (i32.const 5))))
          (local.set $r (i32.load (i32.add (local.get $REV) (i32.shl (local.get $i) (i32.const 2)))))
          ;; Self-vote: only the (session, model) self mean.
          (if (i32.lt_s (local.get $r) (i32.const 0))
            (then
              (local.set $cnt (f64.load (local.get $a)))
              (if (f64.eq (local.get $cnt) (f64.const 0))
                (then
                  (i32.store (i32.add (local.get $SELFORD) (i32.shl (local.get $nSelf) (i32.const 2))) (local.get $p))
                  (local.set $nSelf (i32.add (local.get $nSelf) (i32.const 1)))))
              (local.set $cnt (f64.add (local.get $cnt) (f64.const 1)))
              (f64.store (local.get $a) (local.get $cnt))
              (local.set $mean (f64.load offset=8 (local.get $a)))
              (f64.store offset=8 (local.get $a)
                (f64.add (local.get $mean) (f64.div (f64.sub (local.get $y) (local.get $mean)) (local.get $cnt))))
              (br $next)))
          ;; Peer record: the (session, model) peer mean ...
          (local.set $cnt (f64.add (f64.load offset=16 (local.get $a)) (f64.const 1)))
          (f64.store offset=16 (local.get $a) (local.get $cnt))
          (local.set $mean (f64.load offset=24 (local.get $a)))
          (f64.store offset=24 (local.get $a)
            (f64.add (local.get $mean) (f64.div (f64.sub (local.get $y) (local.get $mean)) (local.get $cnt))))
          ;; ... the session's time span (comparisons as in JS: a NaN time changes nothing) ...
          (local.set $a (i32.add (local.get $SACC) (i32.shl (local.get $s) (i32.const 6))))
          (local.set $ms (f64.load (i32.add (local.get $MS) (i32.shl (local.get $i) (i32.const 3)))))
          (if (f64.lt (local.get $ms) (f64.load offset=48 (local.get $a)))
            (then (f64.store offset=48 (local.get $a) (local.get $ms))))
          (if (f64.gt (local.get $ms) (f64.load offset=56 (local.get $a)))
            (then (f64.store offset=56 (local.get $a) (local.get $ms))))
          ;; ... the session's (length, score) moments (Welford) ...
          (local.set $x (f64.load (i32.add (local.get $X) (i32.shl (local.get $i) (i32.const 3)))))
          (local.set $sn (f64.add (f64.load (local.get $a)) (f64.const 1)))
          (f64.store (local.get $a) (local.get $sn))
          (local.set $mx (f64.load offset=8 (local.get $a)))
          (local.set $my (f64.load offset=16 (local.get $a)))
          (local.set $dx (f64.sub (local.get $x) (local.get $mx)))
          (local.set $dy (f64.sub (local.get $y) (local.get $my)))
          (local.set $mx (f64.add (local.get $mx) (f64.div (local.get $dx) (local.get $sn))))
          (local.set $my (f64.add (local.get $my) (f64.div (local.get $dy) (local.get $sn))))
          (f64.store offset=8 (local.get $a) (local.get $mx))
          (f64.store offset=16 (local.get $a) (local.get $my))
          (f64.store offset=24 (local.get $a)
            (f64.add (f64.load offset=24 (local.get $a)) (f64.mul (local.get $dx) (f64.sub (local.get $x) (local.get $mx)))))
          (f64.store offset=32 (local.get $a)
            (f64.add (f64.load offset=32 (local.get $a)) (f64.mul (local.get $dy) (f64.sub (local.get $y) (local.get $my)))))
          (f64.store offset=40 (local.get $a)
            (f64.add (f64.load offset=40 (local.get $a)) (f64.mul (local.get $dx) (f64.sub (local.get $y) (local.get $my)))))
          ;; ... the reviewer's score moments ...
          (if (call $uni (i32.add (local.get $RACC) (i32.mul (local.get $r) (i32.const 24))) (local.get $y))
            (then
              (i32.store (i32.add (local.get $REVORD) (i32.shl (local.get $nRev) (i32.const 2))) (local.get $r))
              (local.set $nRev (i32.add (local.get $nRev) (i32.const 1)))))
          ;; ... and the position's score moments and the session's count and score sum at that position.
          (local.set $k (i32.load (i32.add (local.get $POS) (i32.shl (local.get $i) (i32.const 2)))))
          (br_if $next (i32.lt_s (local.get $k) (i32.const 0)))
          (if (call $uni (i32.add (local.get $KACC) (i32.mul (local.get $k) (i32.const 24))) (local.get $y))
            (then
              (i32.store (i32.add (local.get $POSORD) (i32.shl (local.get $nPos) (i32.const 2))) (local.get $k))
              (local.set $nPos (i32.add (local.get $nPos) (i32.const 1)))))
          (local.set $a
            (i32.add (local.get $SPOS) (i32.shl (i32.add (i32.mul (local.get $s) (local.get $K)) (local.get $k)) (i32.const 4))))
          (f64.store (local.get $a) (f64.add (f64.load (local.get $a)) (f64.const 1)))
          (f64.store offset=8 (local.get $a) (f64.add (f64.load offset=8 (local.get $a)) (local.get $y))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $record)))
    (i32.store offset=92 (local.get $h) (local.get $nSelf))
    (i32.store offset=96 (local.get $h) (local.get $nRev))
    (i32.store offset=100 (local.get $h) (local.get $nPos)))

  ;; Cluster residual cross-products (decision 043), sessions in first-appearance order: for the positions a ≤ b a
  ;; session has peer records at, cross[a·K + b] += e_a·e_b with e_a = (score sum) − (count)·(mean score at a).
  ;; Each unordered pair meets once per session, so every cell sums the same products in the same order as the JS.
  (func $clusters (param $h i32)
    (local $S i32) (local $K i32) (local $KEEP i32) (local $KACC i32) (local $SPOS i32) (local $CROSS i32)
    (local $TOG i32) (local $E i32) (local $s i32) (local $a i32) (local $b i32) (local $row i32) (local $cell i32)
    (local $present i32) (local $clusters i32) (local $cnt f64) (local $ea f64)
    (local.set $S (i32.load offset=4 (local.get $h)))
    (local.set $K (i32.load offset=8 (local.get $h)))
    (local.set $KEEP (i32.load offset=40 (local.get $h)))
    (local.set $KACC (i32.load offset=64 (local.get $h)))
    (local.set $SPOS (i32.load offset=72 (local.get $h)))
    (local.set $CROSS (i32.load offset=76 (local.get $h)))
    (local.set $TOG (i32.load offset=80 (local.get $h)))
    (local.set $E (i32.load offset=84 (local.get $h)))
    (block $sessionsDone
      (loop $session
        (br_if $sessionsDone (i32.ge_u (local.get $s) (local.get $S)))
        (block $nextSession
          (br_if $nextSession (i32.eqz (i32.load (i32.add (local.get $KEEP) (i32.shl (local.get $s) (i32.const 2))))))
          (local.set $row (i32.add (local.get $SPOS) (i32.shl (i32.mul (local.get $s) (local.get $K)) (i32.const 4))))
          ;; e_a for the positions the session has, and whether it has any.
          (local.set $present (i32.const 0))
          (local.set $a (i32.const 0))
          (block $eDone
            (loop $e
              (br_if $eDone (i32.ge_u (local.get $a) (local.get $K)))
              (local.set $cnt (f64.load (i32.add (local.get $row) (i32.shl (local.get $a) (i32.const 4)))))
              (if (f64.gt (local.get $cnt) (f64.const 0))
                (then
                  (local.set $present (i32.const 1))
                  (f64.store (i32.add (local.get $E) (i32.shl (local.get $a) (i32.const 3)))
                    (f64.sub
                      (f64.load offset=8 (i32.add (local.get $row) (i32.shl (local.get $a) (i32.const 4))))
                      (f64.mul (local.get $cnt) (f64.load offset=8 (i32.add (local.get $KACC) (i32.mul (local.get $a) (i32.const 24)))))))))
              (local.set $a (i32.add (local.get $a) (i32.const 1)))
              (br $e)))
          (br_if $nextSession (i32.eqz (local.get $present)))
          (local.set $clusters (i32.add (local.get $clusters) (i32.const 1)))
          (local.set $a (i32.const 0))
          (block $aDone
            (loop $rowA
              (br_if $aDone (i32.ge_u (local.get $a) (local.get $K)))
              (if (f64.gt (f64.load (i32.add (local.get $row) (i32.shl (local.get $a) (i32.const 4)))) (f64.const 0))
                (then
                  (local.set $ea (f64.load (i32.add (local.get $E) (i32.shl (local.get $a) (i32.const 3)))))
                  (local.set $b (local.get $a))
                  (block $bDone
                    (loop $colB
                      (br_if $bDone (i32.ge_u (local.get $b) (local.get $K)))
                      (if (f64.gt (f64.load (i32.add (local.get $row) (i32.shl (local.get $b) (i32.const 4)))) (f64.const 0))
                        (then
                          (local.set $cell (i32.add (i32.mul (local.get $a) (local.get $K)) (local.get $b)))
                          (f64.store (i32.add (local.get $CROSS) (i32.shl (local.get $cell) (i32.const 3)))
                            (f64.add
                              (f64.load (i32.add (local.get $CROSS) (i32.shl (local.get $cell) (i32.const 3))))
                              (f64.mul (local.get $ea) (f64.load (i32.add (local.get $E) (i32.shl (local.get $b) (i32.const 3)))))))
                          (i32.store (i32.add (local.get $TOG) (i32.shl (local.get $cell) (i32.const 2))) (i32.const 1))))
                      (local.set $b (i32.add (local.get $b) (i32.const 1)))
                      (br $colB)))))
              (local.set $a (i32.add (local.get $a) (i32.const 1)))
              (br $rowA))))
        (local.set $s (i32.add (local.get $s) (i32.const 1)))
        (br $session)))
    (i32.store offset=104 (local.get $h) (local.get $clusters)))

  ;; Self-vote inflation: momentsOf(self mean − peer mean) over the pairs with a self-vote and a peer score, in the
  ;; order of their first self-vote.
  (func $selfVotes (param $h i32)
    (local $PACC i32) (local $SELFORD i32) (local $SELF i32) (local $m i32) (local $j i32) (local $a i32)
    (local $n f64) (local $mean f64) (local $m2 f64) (local $v f64) (local $d f64)
    (local.set $PACC (i32.load offset=48 (local.get $h)))
    (local.set $SELFORD (i32.load offset=52 (local.get $h)))
    (local.set $SELF (i32.load offset=88 (local.get $h)))
    (local.set $m (i32.load offset=92 (local.get $h)))
    (block $done
      (loop $pair
        (br_if $done (i32.ge_u (local.get $j) (local.get $m)))
        (local.set $a
          (i32.add (local.get $PACC) (i32.shl (i32.load (i32.add (local.get $SELFORD) (i32.shl (local.get $j) (i32.const 2)))) (i32.const 5))))
        (if (f64.gt (f64.load offset=16 (local.get $a)) (f64.const 0))
          (then
            (local.set $v (f64.sub (f64.load offset=8 (local.get $a)) (f64.load offset=24 (local.get $a))))
            (local.set $n (f64.add (local.get $n) (f64.const 1)))
            (local.set $d (f64.sub (local.get $v) (local.get $mean)))
            (local.set $mean (f64.add (local.get $mean) (f64.div (local.get $d) (local.get $n))))
            (local.set $m2 (f64.add (local.get $m2) (f64.mul (local.get $d) (f64.sub (local.get $v) (local.get $mean)))))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $pair)))
    (f64.store (local.get $SELF) (local.get $n))
    (f64.store offset=8 (local.get $SELF) (local.get $mean))
    (f64.store offset=16 (local.get $SELF) (local.get $m2)))

  (func (export "windowStats") (param $h i32)
    (call $accumulate (local.get $h))
    (call $clusters (local.get $h))
    (call $selfVotes (local.get $h)))
)
