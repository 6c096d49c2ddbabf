// Loads the project's learned classifier (shared/domain/analyzer/classifier, committed weights) once.
// Returns null if the weights cannot be loaded, so the analyzer still works without the classifier detector.
import { loadClassifier } from './classifier';
import type { TextClassifier } from './detectors/classifier';

let cached: TextClassifier | null | undefined;

export function loadDefaultClassifier(): TextClassifier | null {
  if (cached !== undefined) return cached;
  try {
    cached = loadClassifier();
  } catch {
    cached = null;
  }
  return cached;
}
