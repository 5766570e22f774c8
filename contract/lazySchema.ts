/**
 * A contract schema built the first time it is used, not when its module is evaluated.
 *
 * zod 4 builds a schema eagerly and its constructors are not cheap: the data worker imports every call's answer
 * schema, and building them was about two thirds of the worker's start-up script (CPU profile: ~65 % of the samples
 * of its evaluation in zod's constructors, ~70 ms on this machine), which every page load waits for before its first
 * call. Wrapped, a schema costs nothing until a call parses with it, composes it (`extend`, `pick`, a field of another
 * schema) or reads it.
 *
 * The wrapper is a Proxy standing in for the schema: every property read, `in` test, `instanceof` and key listing goes
 * to the built schema, so it is used and typed exactly as the schema itself (`z.infer<typeof x>`, `x.shape`,
 * `x.extend(...)`). zod 4's methods are closures over their own instance, so a call through the wrapper runs on the
 * built schema.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => (built ??= build());
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    // Reported configurable: a Proxy may not report a non-configurable property its (empty) target does not have.
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
