import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PostgresSslOptions } from './postgres-ssl-options.js';
import { resolveSslSettings, splitSslParameters } from './ssl-settings.js';

const folder = mkdtempSync(join(tmpdir(), 'duro-ssl-settings-'));
const caFile = join(folder, 'ca.pem');
writeFileSync(caFile, 'CA FROM FILE');

afterAll(() => rmSync(folder, { recursive: true, force: true }));

function settings(
  url: string,
  options?: PostgresSslOptions,
  env: NodeJS.ProcessEnv = {},
): ReturnType<typeof resolveSslSettings> {
  return resolveSslSettings({ options, url: splitSslParameters(url).ssl, env });
}

describe('TLS parameters of a database URL', () => {
  it('are taken out of the URL given to pg, keeping the other parameters', () => {
    const split = splitSslParameters(
      'postgres://u:p@db/app?sslmode=verify-full&application_name=x&sslrootcert=%2Fca.pem',
    );
    expect(split.url).toBe('postgres://u:p@db/app?application_name=x');
    expect(split.ssl.get('sslmode')).toBe('verify-full');
    expect(split.ssl.get('sslrootcert')).toBe('/ca.pem');
  });

  it('leave a URL without them exactly as it was', () => {
    const url = 'postgres://u:p@db/app?options=-c%20search_path%3Dx';
    expect(splitSslParameters(url).url).toBe(url);
  });
});

describe('TLS settings, as libpq reads them', () => {
  it('are plain when nothing asks for TLS', async () => {
    expect(await settings('postgres://db/app')).toMatchObject({ mode: 'disable', tls: false });
  });

  it('verify-full checks the chain and the host name with the CA file the URL names', async () => {
    const resolved = await settings(`postgres://db/app?sslmode=verify-full&sslrootcert=${caFile}`);
    expect(resolved.mode).toBe('verify-full');
    expect(resolved.tls).toEqual({ ca: Buffer.from('CA FROM FILE') });
  });

  it('verify-ca checks the chain but not the host name', async () => {
    const resolved = await settings('postgres://db/app?sslmode=verify-ca');
    expect(resolved.tls && resolved.tls.rejectUnauthorized).not.toBe(false);
    expect(resolved.tls && resolved.tls.checkServerIdentity?.('db', {} as never)).toBeUndefined();
  });

  it('require checks nothing without a CA, and the chain with one', async () => {
    expect((await settings('postgres://db/app?sslmode=require')).tls).toEqual({
      rejectUnauthorized: false,
    });
    const withCa = await settings(`postgres://db/app?sslmode=require&sslrootcert=${caFile}`);
    expect(withCa.tls && withCa.tls.rejectUnauthorized).toBeUndefined();
    expect(withCa.tls && withCa.tls.checkServerIdentity).toBeTypeOf('function');
  });

  it('prefer and allow fall back to plain and check nothing', async () => {
    for (const mode of ['prefer', 'allow']) {
      const resolved = await settings(`postgres://db/app?sslmode=${mode}`);
      expect(resolved).toMatchObject({ plainFallback: true, tls: { rejectUnauthorized: false } });
    }
  });

  it('take each setting from the options, then the URL, then PGSSLMODE and PGSSLROOTCERT', async () => {
    const env = { PGSSLMODE: 'require', PGSSLROOTCERT: caFile };
    expect((await settings('postgres://db/app', undefined, env)).mode).toBe('require');
    expect((await settings('postgres://db/app?sslmode=verify-ca', undefined, env)).mode).toBe(
      'verify-ca',
    );
    const fromOptions = await settings(
      'postgres://db/app?sslmode=verify-ca',
      {
        mode: 'verify-full',
        ca: 'CA IN CODE',
      },
      env,
    );
    expect(fromOptions).toMatchObject({ mode: 'verify-full', tls: { ca: 'CA IN CODE' } });
  });

  it('verify fully when TLS is configured but no mode is named', async () => {
    expect((await settings('postgres://db/app', { ca: 'CA' })).mode).toBe('verify-full');
    expect((await settings(`postgres://db/app?sslrootcert=${caFile}`)).mode).toBe('verify-full');
  });

  it("read node-postgres's ssl parameter as the libpq mode it means", async () => {
    expect((await settings('postgres://db/app?ssl=true')).mode).toBe('verify-full');
    expect((await settings('postgres://db/app?ssl=no-verify')).tls).toEqual({
      rejectUnauthorized: false,
    });
  });

  it('sslrootcert=system trusts the bundled roots and needs verify-full', async () => {
    expect(await settings('postgres://db/app?sslrootcert=system')).toMatchObject({
      mode: 'verify-full',
      tls: {},
    });
    await expect(settings('postgres://db/app?sslrootcert=system&sslmode=require')).rejects.toThrow(
      /sslrootcert=system .* needs sslmode verify-full, as in libpq; got 'require'/,
    );
  });

  it('refuse an unknown mode, naming where it was read', async () => {
    await expect(settings('postgres://db/app?sslmode=verify_full')).rejects.toThrow(
      "sslmode in the database URL must be one of disable, allow, prefer, require, verify-ca, verify-full; got 'verify_full'",
    );
    await expect(settings('postgres://db/app', undefined, { PGSSLMODE: 'on' })).rejects.toThrow(
      /^PGSSLMODE must be one of/,
    );
  });

  it('refuse a client certificate without its key', async () => {
    await expect(settings('postgres://db/app', { cert: 'CERT' })).rejects.toThrow(
      /a client certificate goes with its private key/,
    );
  });

  it('name the setting whose file cannot be read', async () => {
    await expect(
      settings('postgres://db/app', undefined, { PGSSLROOTCERT: join(folder, 'missing.pem') }),
    ).rejects.toThrow(/^cannot read the file named by PGSSLROOTCERT: ENOENT/);
  });
});
