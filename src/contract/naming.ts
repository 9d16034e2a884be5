/** C2: the closed list of verbs a tool name may end with. */
export const toolVerbs = [
  'create',
  'get',
  'list',
  'update',
  'delete',
  'upload',
  'add',
  'attach',
  'detach',
  'extract',
  'record',
  'aggregate',
  'review',
  'write',
  'apply',
  'export',
  'validate',
  'set',
  'propose',
  'approve',
  'ingest',
  'close',
  'enrich',
  'run',
  'status',
] as const;

export type ToolVerb = (typeof toolVerbs)[number];

const namePattern = /^[a-z][a-z0-9_]{2,63}$/;

/** Returns why `name` breaks C2, or null when it is a valid tool name. */
export function nameProblem(name: string): string | null {
  if (!namePattern.test(name)) return `"${name}" must match ${namePattern.source}`;
  const parts = name.split('_');
  if (parts.some((p) => p === '')) return `"${name}" has an empty segment`;
  // Two seed families keep their own shape: search is one tool per corpus; governance keeps HAI's names.
  if (parts[0] === 'search') return parts.length === 2 ? null : `search tools are named search_<corpus>`;
  if (parts[0] === 'hai')
    return parts.length >= 2 ? null : `governance tools are named hai_<verb>[_<object>]`;
  if (parts.length < 2) return `"${name}" must be <family>_[<object>_]<verb>`;
  const verb = parts[parts.length - 1] as string;
  if (!(toolVerbs as readonly string[]).includes(verb)) {
    return `"${name}" must end with a verb from the closed list (${toolVerbs.join(', ')}), not "${verb}"`;
  }
  return null;
}

/** The family is the name's first segment: the namespace an agent scans. */
export const familyOf = (name: string): string => name.split('_')[0] ?? name;
export const verbOf = (name: string): string => name.split('_').at(-1) ?? name;

/** Levenshtein distance, for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] as number;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] as number;
      prev[j] = Math.min(up + 1, (prev[j - 1] as number) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length] as number;
}

/** The declared name closest to `given`, if it is close enough to be a plausible typo. */
export function nearestName(given: string, declared: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of declared) {
    const d = editDistance(given.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(given.length / 3)) ? best : undefined;
}
