import retextEnglish from 'retext-english';
import retextEquality from 'retext-equality';
import { unified } from 'unified';
import { VFile } from 'vfile';
import type { Finding } from '../../schemas/analysis';
import type { Detector } from './detector';

const processor = unified().use(retextEnglish).use(retextEquality);

export const languageDetector: Detector = {
  name: 'language',
  version: '0.1.0',
  async detect({ text }) {
    const file = new VFile(text);
    await processor.run(processor.parse(file), file);
    return file.messages.flatMap((m): Finding[] => {
      const start = m.place && 'start' in m.place ? m.place.start.offset : undefined;
      const end = m.place && 'end' in m.place ? m.place.end.offset : undefined;
      if (start === undefined || end === undefined) return [];
      return [
        {
          detector: 'language',
          detector_version: '0.1.0',
          bias_type: ['gender', 'language'],
          score: 0.6,
          explanation: m.reason,
          spans: [{ start, end, text: text.slice(start, end) }],
          ...(m.expected?.length ? { suggestion: String(m.expected[0]) } : {}),
        },
      ];
    });
  },
};
