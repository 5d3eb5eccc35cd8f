/** Words for bulk add and CSV import: counts and one unit's result in a sentence. */
import type { BulkAddResult } from '../../src-preload/contract';

/** "1 controller", "30 controllers". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What happened to one unit: "Added as “Rack 10”.", or the reason it was not added and what to do. */
export function resultSentence(result: BulkAddResult): string {
  if (result.added) return `Added as “${result.added.name}”.`;
  if (!result.error) return 'Not added.';
  if (result.error.code === 'TLS_UNTRUSTED') return 'Its certificate needs checking (see the list above).';
  return result.error.action ? `${result.error.message} ${result.error.action}` : result.error.message;
}

/** added | refused | certificate: what a result is, for styling and tests. */
export function outcomeOf(result: BulkAddResult): 'added' | 'refused' | 'certificate' {
  if (result.added) return 'added';
  return result.error?.code === 'TLS_UNTRUSTED' ? 'certificate' : 'refused';
}
