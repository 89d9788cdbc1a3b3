import { describe, expect, it } from 'vitest';
import { InvalidSchemaNameError, validateSchemaName } from './schema-name.js';

describe('schema names', () => {
  it.each(['public', 'duroxide', 'ps_duroxide', '_x1', 'MixedCase', 'a'.repeat(63)])(
    'accepts %s',
    (name) => {
      expect(validateSchemaName(name)).toBe(name);
    },
  );

  it.each(['a; drop table x', '', '1abc', 'has space', 'quote"d', 'a'.repeat(64), 'dash-ed'])(
    'rejects %j with an error naming it',
    (name) => {
      expect(() => validateSchemaName(name)).toThrow(InvalidSchemaNameError);
      expect(() => validateSchemaName(name)).toThrow(JSON.stringify(name));
    },
  );
});
