// Deterministic, seeded trainer for the linear model: AdaGrad SGD on a weighted mix of pointwise
// logistic loss (text -> biased?), pairwise logistic loss (more-biased text should score higher than
// its minimally different less-biased twin) and bag loss (a response's soft-maximum sentence logit -> biased?),
// with L2 applied to the touched weights. Pure: no I/O.
import { mulberry32 as rng } from '../../random';
import type { Features } from './features';

export interface PointExample { x: Features; y: 0 | 1; weight: number }
export interface PairExample { more: Features; less: Features; weight: number }
/** A response as a bag of its sentences (multiple-instance learning): a biased one has at least one biased sentence,
 * a clean one none. Its logit is a soft maximum of the sentence logits, log(sum exp(r z)) / r, so the loss falls on
 * the sentences that score highest. */
export interface BagExample { parts: Features[]; y: 0 | 1; weight: number }
export const BAG_SHARPNESS = 2;

export interface TrainOptions {
  dim: number;
  epochs: number;
  lr: number;
  l2: number;
  seed: number;
}



export function shuffleInPlace<T>(xs: T[], rand: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = xs[i]!;
    xs[i] = xs[j]!;
    xs[j] = t;
  }
  return xs;
}

function sig(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

export function trainLinear(
  points: PointExample[],
  pairs: PairExample[],
  opts: TrainOptions,
  bags: BagExample[] = [],
): { w: Float64Array; bias: number } {
  const w = new Float64Array(opts.dim);
  const g2 = new Float64Array(opts.dim);
  let bias = 0;
  let gb2 = 0;
  const rand = rng(opts.seed);
  const order: number[] = [];
  for (let i = 0; i < points.length + pairs.length + bags.length; i++) order.push(i);
  const eps = 1e-8;

  const update = (f: Features, coef: number): void => {
    // coef = d loss / d margin, scaled by the example weight; gradient on w_i is coef * x_i + l2 * w_i
    for (let k = 0; k < f.idx.length; k++) {
      const i = f.idx[k]!;
      const g = coef * f.val[k]! + opts.l2 * w[i]!;
      g2[i] = g2[i]! + g * g;
      w[i] = w[i]! - (opts.lr * g) / (Math.sqrt(g2[i]!) + eps);
    }
  };

  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    shuffleInPlace(order, rand);
    for (const o of order) {
      if (o < points.length) {
        const p = points[o]!;
        let z = bias;
        for (let k = 0; k < p.x.idx.length; k++) z += w[p.x.idx[k]!]! * p.x.val[k]!;
        const coef = (sig(z) - p.y) * p.weight;
        update(p.x, coef);
        gb2 += coef * coef;
        bias -= (opts.lr * coef) / (Math.sqrt(gb2) + eps);
      } else if (o >= points.length + pairs.length) {
        const b = bags[o - points.length - pairs.length]!;
        const z = b.parts.map((f) => {
          let s = bias;
          for (let k = 0; k < f.idx.length; k++) s += w[f.idx[k]!]! * f.val[k]!;
          return s;
        });
        const top = Math.max(...z);
        const e = z.map((x) => Math.exp(BAG_SHARPNESS * (x - top)));
        const sum = e.reduce((a, x) => a + x, 0);
        const pooled = top + Math.log(sum) / BAG_SHARPNESS;
        // d loss / d z_s = (sig(pooled) - y) * softmax(r z)_s: the push goes to the sentences already scoring highest
        const coef = (sig(pooled) - b.y) * b.weight;
        let cb = 0;
        b.parts.forEach((f, i) => {
          const c = (coef * e[i]!) / sum;
          update(f, c);
          cb += c;
        });
        gb2 += cb * cb;
        bias -= (opts.lr * cb) / (Math.sqrt(gb2) + eps);
      } else {
        const q = pairs[o - points.length]!;
        let m = 0;
        for (let k = 0; k < q.more.idx.length; k++) m += w[q.more.idx[k]!]! * q.more.val[k]!;
        for (let k = 0; k < q.less.idx.length; k++) m -= w[q.less.idx[k]!]! * q.less.val[k]!;
        const coef = -(1 - sig(m)) * q.weight;
        update(q.more, coef);
        update(q.less, -coef);
      }
    }
  }
  return { w, bias };
}
