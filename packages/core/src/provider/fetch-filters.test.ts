import { describe, expect, it } from 'vitest';
import { parseSemver } from '../model/semver.js';
import { TagFilter, capabilityFilterAccepts, tagFilterMatches } from './fetch-filters.js';

describe('tag filters', () => {
  it('route tagged and untagged activities as duroxide does', () => {
    const table: Array<[TagFilter, string | null, boolean]> = [
      [TagFilter.defaultOnly(), null, true],
      [TagFilter.defaultOnly(), 'gpu', false],
      [TagFilter.tags(['gpu']), 'gpu', true],
      [TagFilter.tags(['gpu']), 'cpu', false],
      [TagFilter.tags(['gpu']), null, false],
      [TagFilter.defaultAnd(['gpu']), null, true],
      [TagFilter.defaultAnd(['gpu']), 'gpu', true],
      [TagFilter.defaultAnd(['gpu']), 'cpu', false],
      [TagFilter.any(), 'anything', true],
      [TagFilter.any(), null, true],
      [TagFilter.none(), null, false],
      [TagFilter.none(), 'gpu', false],
    ];
    for (const [filter, tag, expected] of table) {
      expect(tagFilterMatches(filter, tag), `${filter.type} with ${tag}`).toBe(expected);
    }
  });

  it('refuse an empty tag set and more than five tags', () => {
    expect(() => TagFilter.tags([])).toThrow('at least one tag');
    expect(() => TagFilter.defaultAnd(['a', 'b', 'c', 'd', 'e', 'f'])).toThrow(
      'at most 5 tags, got 6',
    );
    expect(TagFilter.tags(['a', 'a', 'b'])).toEqual({ type: 'Tags', tags: ['a', 'b'] });
  });
});

describe('capability filters', () => {
  it('accept a version inside any range, both ends included', () => {
    const filter = {
      supportedDuroxideVersions: [
        { min: parseSemver('0.0.0'), max: parseSemver('0.1.30') },
        { min: parseSemver('1.0.0'), max: parseSemver('1.2.0') },
      ],
    };
    expect(capabilityFilterAccepts(filter, parseSemver('0.1.30'))).toBe(true);
    expect(capabilityFilterAccepts(filter, parseSemver('0.1.31'))).toBe(false);
    expect(capabilityFilterAccepts(filter, parseSemver('1.0.0'))).toBe(true);
    expect(capabilityFilterAccepts(filter, parseSemver('1.2.1'))).toBe(false);
    expect(capabilityFilterAccepts({ supportedDuroxideVersions: [] }, parseSemver('0.0.1'))).toBe(
      false,
    );
  });

  it('refuse text that is not a semantic version, naming it', () => {
    expect(() => parseSemver('1.2')).toThrow('not a semantic version: "1.2"');
    expect(parseSemver('0.1.32-beta.1')).toEqual({ major: 0, minor: 1, patch: 32 });
  });
});
