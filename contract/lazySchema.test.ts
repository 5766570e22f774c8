import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { lazySchema } from './lazySchema';
import { userInfoSchema } from './session';

describe('lazySchema', () => {
  it('builds the schema on first use, once', () => {
    const build = vi.fn(() => z.object({ id: z.number().int() }));
    const schema = lazySchema(build);
    expect(build).not.toHaveBeenCalled();
    expect(schema.parse({ id: 3 })).toEqual({ id: 3 });
    expect(schema.safeParse({ id: 'x' }).success).toBe(false);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('is used as the schema itself: fields, composition, instanceof and errors', () => {
    const point = lazySchema(() => z.object({ x: z.number(), y: z.number() }));
    expect(Object.keys(point.shape)).toEqual(['x', 'y']);
    expect(point).toBeInstanceOf(z.ZodObject);
    expect('_zod' in point).toBe(true);
    expect(point.pick({ x: true }).parse({ x: 1, y: 2 })).toEqual({ x: 1 });
    expect(point.extend({ z: z.number() }).parse({ x: 1, y: 2, z: 3 })).toEqual({ x: 1, y: 2, z: 3 });
    // A field of another schema, an array element, optional: parsed through the wrapper.
    const line = z.object({ from: point, to: point.optional(), via: z.array(point) });
    expect(line.parse({ from: { x: 0, y: 0 }, via: [{ x: 1, y: 1 }] })).toEqual({ from: { x: 0, y: 0 }, via: [{ x: 1, y: 1 }] });
    const failed = line.safeParse({ from: { x: 0, y: 'north' }, via: [] });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues[0]?.path).toEqual(['from', 'y']);
  });

  it("a contract schema checks an answer as before (the worker's getInfo)", () => {
    const answer = {
      roles: ['seller'],
      rolePermissions: ['seller'],
      // An owner's answer: no member grants.
      permissions: null,
      user: {
        id: 7,
        name: 'seller',
        avatar: '',
        introduction: '',
        rightInfo: { activeRoles: ['seller'], expiredRoles: [], isAdmin: false },
        followValidTime: null,
        plugValidTime: null,
        searchWordValidTime: null,
        keyWordValidTime: null,
      },
    };
    const parsed = userInfoSchema.safeParse(answer);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(userInfoSchema.safeParse({ ...answer, roles: [] }).success).toBe(false);
    // A member's answer names their grants; an answer without the field is refused.
    expect(userInfoSchema.safeParse({ ...answer, permissions: ['orders:view', 'orders:ship'] }).success).toBe(true);
    expect(userInfoSchema.safeParse({ ...answer, permissions: undefined }).success).toBe(false);
  });
});
