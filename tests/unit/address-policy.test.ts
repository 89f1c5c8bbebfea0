import { isExempt, isLocalName, isPublicAddress, parseHostExemptions } from '../../src/kernel/address-policy';

describe('isPublicAddress', () => {
  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '100.63.255.255', // just below CGNAT
    '100.128.0.0', // just above CGNAT
    '172.15.255.255',
    '172.32.0.0',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82b::200e',
    '[2606:4700:4700::1111]',
    '::ffff:8.8.8.8',
  ])('accepts the public address %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each([
    '127.0.0.1', '127.255.255.254', '0.0.0.0', '0.1.2.3', '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255',
    '192.168.0.1', '169.254.169.254', '100.64.0.1', '100.127.255.255', '100.100.100.200', '192.0.0.8', '192.0.2.1',
    '192.88.99.1', '198.18.0.1', '198.19.255.255', '198.51.100.7', '203.0.113.9', '224.0.0.1', '239.255.255.250',
    '240.0.0.1', '255.255.255.255',
    '::', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254',
    '::127.0.0.1', '::7f00:1', '::ffff:0:7f00:1', '64:ff9b::7f00:1', '64:ff9b::808:808', '64:ff9b:1::1', '2002:7f00:1::',
    '2002:808:808::', '2001:0:4136:e378:8000:63bf:80ff:fffe', '2001:2::1', '2001:db8::1', '3fff::1', '100::1', 'fc00::1',
    'fd00::1', 'fe80::1', 'fe80::1%lo', 'fec0::1', 'ff02::1', 'ff0e::1', '5f00::1', '[::1]',
  ])('refuses the non-public address %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(['localhost', 'example.com', '', '2130706433', '0x7f.1', '127.1', '017700000001', '1.2.3.4.5'])(
    'refuses %j, which is not a strictly written IP address',
    (value) => {
      expect(isPublicAddress(value)).toBe(false);
    },
  );
});

describe('isLocalName', () => {
  it.each(['localhost', 'LOCALHOST', 'localhost.', 'a.b.localhost', 'printer.local', 'metadata.google.internal', 'router.home.arpa', 'metadata'])(
    'treats %s as local',
    (name) => expect(isLocalName(name)).toBe(true),
  );
  it.each(['example.com', 'localhost.example.com', 'internal.example', 'local'])('does not treat %s as local', (name) =>
    expect(isLocalName(name)).toBe(false),
  );
});

describe('host exemptions', () => {
  it('parses host, host:port, bracketed and bare IPv6 entries', () => {
    expect(parseHostExemptions('intranet.corp, 127.0.0.1:8080,[::1]:9000 ::1  WIKI.Corp.')).toEqual([
      { host: 'intranet.corp', port: undefined },
      { host: '127.0.0.1', port: 8080 },
      { host: '::1', port: 9000 },
      { host: '::1', port: undefined },
      { host: 'wiki.corp', port: undefined },
    ]);
    expect(parseHostExemptions('')).toEqual([]);
    expect(parseHostExemptions(undefined)).toEqual([]);
  });

  it('refuses malformed entries instead of exempting nothing silently', () => {
    expect(() => parseHostExemptions('host:port')).toThrow(/port must be a number/);
    expect(() => parseHostExemptions('host:70000')).toThrow(/host or host:port/);
    expect(() => parseHostExemptions(':80')).toThrow(/host or host:port/);
  });

  it('matches the host and, when given, the port (default ports included)', () => {
    const list = parseHostExemptions('127.0.0.1:8080, wiki.corp, [::1]:443');
    expect(isExempt(new URL('http://127.0.0.1:8080/x'), list)).toBe(true);
    expect(isExempt(new URL('http://127.0.0.1:8081/x'), list)).toBe(false);
    expect(isExempt(new URL('http://127.0.0.1/x'), list)).toBe(false);
    expect(isExempt(new URL('https://wiki.corp/'), list)).toBe(true);
    expect(isExempt(new URL('http://WIKI.corp.:1234/'), list)).toBe(true);
    expect(isExempt(new URL('https://[::1]/'), list)).toBe(true);
    expect(isExempt(new URL('http://[::1]/'), list)).toBe(false);
    expect(isExempt(new URL('http://other.corp/'), list)).toBe(false);
    expect(isExempt(new URL('http://127.0.0.1:8080/'), [])).toBe(false);
  });
});
