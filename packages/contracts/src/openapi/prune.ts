const PREFIX = '#/components/';

/** Every `#/components/<kind>/<name>` a node refers to, as `<kind>/<name>`. */
function refsIn(node: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => refsIn(item, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(PREFIX)) {
        found.add(value.slice(PREFIX.length));
      } else refsIn(value, found);
    }
  }
  return found;
}

/**
 * Drops the components nothing refers to (every exported contract schema becomes one, but a reader
 * or a generated client only needs those an operation or webhook reaches). Security schemes are kept:
 * requirements name them, not `$ref` them.
 */
export function pruneUnusedComponents<D extends { components: Record<string, Record<string, unknown>> }>(
  doc: D,
): D {
  const { components, ...rest } = doc;
  const used = refsIn(rest, new Set());
  const pending = [...used];
  while (pending.length) {
    const [kind, name] = pending.pop()!.split('/') as [string, string];
    for (const ref of refsIn(components[kind]?.[name], new Set())) {
      if (used.has(ref)) continue;
      used.add(ref);
      pending.push(ref);
    }
  }
  const kept = Object.fromEntries(
    Object.entries(components).map(([kind, entries]) => [
      kind,
      kind === 'securitySchemes'
        ? entries
        : Object.fromEntries(Object.entries(entries).filter(([name]) => used.has(`${kind}/${name}`))),
    ]),
  );
  return { ...rest, components: kept } as unknown as D;
}
