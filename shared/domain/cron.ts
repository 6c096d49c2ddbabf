// Minimal five-field cron matcher (minute hour day-of-month month day-of-week) for the local tick emulation.
// Cloud Scheduler evaluates the same expressions in production.
function field(expr: string, min: number, max: number): Set<number> {
  const out = new Set<number>();
  for (const part of expr.split(',')) {
    const [range = '*', stepText] = part.split('/');
    const step = stepText ? Number(stepText) : 1;
    let lo = min;
    let hi = max;
    if (range !== '*') {
      const [a, b] = range.split('-');
      lo = Number(a);
      hi = b === undefined ? (stepText ? max : lo) : Number(b);
    }
    if (![lo, hi, step].every(Number.isInteger) || lo < min || hi > max || step < 1) throw new Error(`invalid cron field "${expr}"`);
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

export function parseCron(expr: string) {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5) throw new Error(`cron "${expr}" needs five fields`);
  const [mi, h, dom, mon, dow] = parts as [string, string, string, string, string];
  const sets = { minute: field(mi, 0, 59), hour: field(h, 0, 23), dom: field(dom, 1, 31), month: field(mon, 1, 12), dow: field(dow, 0, 7) };
  if (sets.dow.has(7)) sets.dow.add(0);
  return sets;
}

/** True when `date` (evaluated in UTC) falls on a minute the expression fires. */
export function cronMatches(expr: string, date: Date): boolean {
  const c = parseCron(expr);
  return (
    c.minute.has(date.getUTCMinutes()) &&
    c.hour.has(date.getUTCHours()) &&
    c.dom.has(date.getUTCDate()) &&
    c.month.has(date.getUTCMonth() + 1) &&
    c.dow.has(date.getUTCDay())
  );
}
