// Media-type negotiation of the endpoint: `Content-Type` of a POST, `Accept` of a POST or a GET.

/** True for `application/json` (parameters such as `charset` ignored). */
export function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  if (value === 'application/json') return true; // what clients send: no split, no copies
  return value.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}

/** Verdicts of {@link acceptsBoth} per header value: clients send the same `Accept` on every request. */
const acceptVerdicts = new Map<string, boolean>();
const MAX_ACCEPT_VERDICTS = 64;

/** True when an `Accept` header allows both response types (`*\/*`, `application/*`, `text/*` count; q=0 does not). */
export function acceptsBoth(value: string | null): boolean {
  if (value === null) return false;
  let verdict = acceptVerdicts.get(value);
  if (verdict === undefined) {
    verdict = parseAcceptsBoth(value);
    if (acceptVerdicts.size >= MAX_ACCEPT_VERDICTS) acceptVerdicts.clear();
    acceptVerdicts.set(value, verdict);
  }
  return verdict;
}

/** True when an `Accept` header allows media `type` (`*\/*` and `<major>/*` count; q=0 does not). */
export function accepts(value: string | null, type: string): boolean {
  return value !== null && allows(acceptedRanges(value), type);
}

/** The media ranges of an `Accept` header, lower-cased, without parameters; ranges with q=0 left out. */
function acceptedRanges(value: string): string[] {
  return value.split(',').flatMap((part) => {
    const [range, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return range && !(q !== undefined && Number(q.slice(2)) === 0) ? [range] : [];
  });
}

function parseAcceptsBoth(value: string): boolean {
  const ranges = acceptedRanges(value);
  return allows(ranges, 'application/json') && allows(ranges, 'text/event-stream');
}

function allows(ranges: readonly string[], type: string): boolean {
  return ranges.some((r) => r === type || r === '*/*' || r === `${type.split('/')[0]}/*`);
}
