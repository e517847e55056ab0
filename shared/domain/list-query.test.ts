import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containsPattern, listQueryString } from '#contracts/list-query.ts';
import { DomainError } from './errors.ts';
import { applyListQuery, fold, likeMatcher, likeToMatcher, matchesWhere, parseListQuery } from './list-query.ts';
import { assertProperty } from '../../tests/support/property-runs.ts';

const rules = { fields: ['name', 'data.email', 'archivedAt', 'age', 'type'], includes: ['service'] };
const people = [
  { name: 'João Silva', data: { email: 'joao@ex.com' }, archivedAt: null, age: 30, type: 'a' },
  { name: 'maria souza', data: { email: 'MARIA@ex.com' }, archivedAt: '2025-01-01', age: 25, type: 'b' },
  { name: 'Ana_Paula 100%', data: { email: null }, archivedAt: null, age: 41, type: 'a' },
];

describe('parseListQuery', () => {
  it('defaults to page 0, 10 a page, with count, when no query is given', () => {
    expect(parseListQuery(undefined, rules)).toEqual({ where: {}, include: [], order: [], page: 0, perPage: 10, withCount: true });
  });

  it('reads the URL-encoded JSON the web app sends', () => {
    const search = listQueryString({ where: { name: { like: '%jo%' } }, include: ['service'], order: [['name', 'ASC']], page: 2, perPage: 20 });
    const raw = new URLSearchParams(search.slice(1)).get('query')!;
    expect(parseListQuery(raw, rules)).toMatchObject({ where: { name: { like: '%jo%' } }, include: ['service'], page: 2, perPage: 20 });
  });

  it.each([
    ['not JSON', '{nope'],
    ['an array', '[]'],
    ['an unknown field', JSON.stringify({ where: { password: 'x' } })],
    ['an unknown field inside or', JSON.stringify({ where: { or: [{ secret: 1 }] } })],
    ['an unknown include', JSON.stringify({ include: ['passwords'] })],
    ['an unknown order field', JSON.stringify({ order: [['secret', 'ASC']] })],
    ['a bad direction', JSON.stringify({ order: [['name', 'UP']] })],
    ['a negative page', JSON.stringify({ page: -1 })],
    ['too many per page', JSON.stringify({ perPage: 501 })],
    ['an unknown operator', JSON.stringify({ where: { name: { regex: '.*' } } })],
    ['an unknown top-level key', JSON.stringify({ limit: 5 })],
  ])('refuses %s as Invalid params', (_, raw) => {
    try {
      parseListQuery(raw, rules);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).text).toBe('Invalid params');
    }
  });
});

describe('like', () => {
  it('is case- and accent-insensitive', () => {
    expect(likeToMatcher('%JOAO%').test(fold('João Silva'))).toBe(true);
    expect(likeToMatcher('maria%').test(fold('Maria Souza'))).toBe(true);
    expect(likeToMatcher('maria').test(fold('Maria Souza'))).toBe(false);
  });

  it('treats _ as one character and honours escapes made by containsPattern', () => {
    expect(likeToMatcher('a_a').test('ana')).toBe(true);
    const literal = containsPattern('_paula 100%');
    expect(likeToMatcher(literal).test(fold('Ana_Paula 100%'))).toBe(true);
    expect(likeToMatcher(literal).test(fold('AnaXPaula 1000'))).toBe(false);
  });

  it('never matches a missing value', () => {
    expect(matchesWhere(people[2], { 'data.email': { like: '%' } })).toBe(false);
  });
});

describe('applyListQuery', () => {
  const q = (raw: object) => parseListQuery(JSON.stringify(raw), rules);

  it('filters with equality, null and nested paths', () => {
    expect(applyListQuery(people, q({ where: { archivedAt: null } })).data.map((p) => p.age)).toEqual([30, 41]);
    expect(applyListQuery(people, q({ where: { 'data.email': { like: '%maria%' } } })).totalCount).toBe(1);
  });

  it('matches any of the `or` options (search on name or e-mail)', () => {
    const search = q({ where: { or: [{ name: { like: '%ex.com%' } }, { 'data.email': { like: '%ex.com%' } }] } });
    expect(applyListQuery(people, search).totalCount).toBe(2);
  });

  it('supports ne, in and ranges', () => {
    expect(applyListQuery(people, q({ where: { type: { ne: 'a' } } })).totalCount).toBe(1);
    expect(applyListQuery(people, q({ where: { age: { in: [25, 41] } } })).totalCount).toBe(2);
    expect(applyListQuery(people, q({ where: { age: { gte: 30, lt: 41 } } })).data.map((p) => p.age)).toEqual([30]);
  });

  it('orders by several fields, pt-BR collation, and pages with the total', () => {
    const ordered = applyListQuery(
      people,
      q({
        order: [
          ['type', 'ASC'],
          ['name', 'DESC'],
        ],
      }),
    );
    expect(ordered.data.map((p) => p.age)).toEqual([30, 41, 25]);
    const page = applyListQuery(people, q({ order: [['age', 'ASC']], page: 1, perPage: 2 }));
    expect(page).toEqual({ data: [people[2]], totalCount: 3 });
  });
});

/** SQL LIKE as a regular expression: the reference the matchers are compared with (fine on short texts). */
function likeReference(pattern: string): RegExp {
  let source = '';
  const folded = fold(pattern);
  for (let i = 0; i < folded.length; i++) {
    const c = folded[i]!;
    if (c === '\\' && i + 1 < folded.length) source += folded[++i]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    else if (c === '%') source += '.*';
    else if (c === '_') source += '.';
    else source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}

describe('likeMatcher', () => {
  it('agrees with the regular expression for every shape', () => {
    const texts = ['joao silva', 'maria', 'ana_paula 100%', 'silva', ''];
    for (const pattern of ['%silva%', 'silva%', '%silva', 'silva', '%', 'jo_o%', '%100\\%', '%a_p%', 'MARIA']) {
      for (const text of texts) {
        expect(likeMatcher(pattern).test(text), `${pattern} ~ ${text}`).toBe(likeReference(pattern).test(text));
      }
    }
  });

  it('agrees with the regular expression on any pattern and text (fast-check)', () => {
    const alphabet = fc.constantFrom('a', 'b', 'á', '%', '_', '\\', '.', '*');
    assertProperty(
      fc.property(
        fc.string({ unit: alphabet, maxLength: 10 }),
        fc.string({ unit: fc.constantFrom('a', 'b', '%', '_', '.', '\\'), maxLength: 14 }),
        (pattern, text) => {
          expect(likeMatcher(pattern).test(text)).toBe(likeReference(pattern).test(text));
        },
      ),
      { quick: 500, full: 2000 },
    );
  });

  // Regression (found by the request properties): `%a%a…%b` took exponential time in a
  // backtracking regular expression, so one list query could stall the contacts list.
  it('answers a pattern of many runs against a long text at once', () => {
    const many = likeToMatcher(`${'%a'.repeat(60)}%b`);
    expect(many.test('a'.repeat(5000))).toBe(false);
    expect(many.test(`${'a'.repeat(5000)}b`)).toBe(true);
  });
});

describe('list fields', () => {
  const items = [
    { id: 'a', tags: ['t1', 't2'] },
    { id: 'b', tags: ['t2'] },
    { id: 'c', tags: [] as string[] },
  ];
  const ids = (where: Record<string, unknown>) => items.filter((i) => matchesWhere(i, where as never)).map((i) => i.id);

  it('match when one of their values matches', () => {
    expect(ids({ tags: 't1' })).toEqual(['a']);
    expect(ids({ tags: { in: ['t1', 't2'] } })).toEqual(['a', 'b']);
  });

  it('match ne only when no value is equal', () => {
    expect(ids({ tags: { ne: 't1' } })).toEqual(['b', 'c']);
  });
});
