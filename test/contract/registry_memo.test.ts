// The registry built from JSON Schemas kept by an earlier start of the same build (the Node entry's file,
// entry/schema_memo.ts) is the registry built from the zod schemas, and those schemas are checked all the same.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toolList as tools } from '../../functions/index.ts';
import { defineTool } from '../../src/contract/define.ts';
import { buildRegistry, type SchemaMemo } from '../../src/contract/registry.ts';

const read = (name: string) =>
  defineTool({
    name,
    description: 'A fixture tool used by the registry tests; long enough to count as written for a model.',
    input: {},
    output: z.object({}),
    mutates: false,
    run: async () => ({}),
  });

describe('registry: JSON Schemas kept from an earlier start', () => {
  it('built from the JSON Schemas an earlier build kept (written as JSON, read back), is the same registry', () => {
    for (const ownerGate of ['ack', 'approval'] as const) {
      const fresh = buildRegistry(tools, { ownerGate });
      const kept: Record<string, unknown> = {};
      const first = buildRegistry(tools, {
        ownerGate,
        schemas: {
          get: () => undefined,
          set: (key, schema) => {
            kept[key] = schema;
          },
        },
      });
      // Each tool's input (per gate mode) and output.
      expect(Object.keys(kept)).toHaveLength(2 * tools.length);
      const file = JSON.parse(JSON.stringify(kept)) as Record<string, never>;
      const read: string[] = [];
      const memo: SchemaMemo = {
        get: (key) => {
          read.push(key);
          return file[key];
        },
        set: () => {
          throw new Error('nothing is derived again');
        },
      };
      const second = buildRegistry(tools, { ownerGate, schemas: memo });
      expect(read).toHaveLength(2 * tools.length);
      for (const r of [first, second]) {
        expect(JSON.stringify(r.tools.map((t) => t.listing))).toBe(
          JSON.stringify(fresh.tools.map((t) => t.listing)),
        );
        expect(r.tools.map((t) => [...t.plan.params.values()])).toEqual(
          fresh.tools.map((t) => [...t.plan.params.values()]),
        );
      }
    }
  });

  it('checks the JSON Schemas it is given as it checks those it derives', () => {
    const bad = read('thing_get');
    const memo: SchemaMemo = {
      get: (key) =>
        key === 'thing_get output'
          ? { full: { type: 'object', properties: { x: {} } }, advertised: {} }
          : undefined,
      set: () => {},
    };
    expect(() => buildRegistry([bad], { schemas: memo })).toThrow(
      /thing_get \[C1\] output at \.x accepts any value/,
    );
  });
});
