import { isDeepStrictEqual } from 'node:util';
import { serializerCompiler } from 'fastify-type-provider-zod';

type SerializerCompiler = typeof serializerCompiler;

/**
 * The response serializer for tests: serializes with the route's response schema, as in production,
 * and throws when the schema changed the answer (a field the schema does not declare would be silently
 * stripped). So the API suite proves that every response schema describes the whole answer.
 */
export const checkedSerializerCompiler: SerializerCompiler = (route) => {
  const serialize = serializerCompiler(route);
  return (data: unknown) => {
    const text = serialize(data);
    const plain = JSON.parse(JSON.stringify(data)) as unknown;
    const sent = JSON.parse(text) as unknown;
    if (!isDeepStrictEqual(plain, sent)) {
      const message = `${route.method} ${route.url}: the response schema changed the answer (${firstDifference(plain, sent)})`;
      // The error handler answers 500 and logs nothing in tests: say here what went wrong.
      console.error(message);
      throw new Error(message);
    }
    return text;
  };
};

/** Where two JSON values first differ, as a path ("items.0.createdAt"). */
function firstDifference(a: unknown, b: unknown, path = ''): string {
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      const x = (a as Record<string, unknown>)[key];
      const y = (b as Record<string, unknown>)[key];
      if (!isDeepStrictEqual(x, y)) return firstDifference(x, y, path ? `${path}.${key}` : key);
    }
  }
  return `${path || 'the answer'}: ${JSON.stringify(a)?.slice(0, 80)} became ${JSON.stringify(b)?.slice(0, 80)}`;
}
