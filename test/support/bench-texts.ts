// The analyzer benchmark's texts (test/bench/analyze.bench.ts): whole fixture responses joined up to a target size,
// then cut at a sentence end. The output-pinning unit test analyses the same texts.
export function textsOfSize(fixtures: readonly { llm_response: string }[], bytes: number, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    let t = '';
    for (let j = 0; Buffer.byteLength(t) < bytes; j++) t += `${fixtures[(i * 7 + j * 13) % fixtures.length]!.llm_response}\n\n`;
    const cut = t.slice(0, bytes);
    const end = cut.lastIndexOf('. ');
    out.push(end > bytes * 0.8 ? cut.slice(0, end + 1) : cut);
  }
  return out;
}
