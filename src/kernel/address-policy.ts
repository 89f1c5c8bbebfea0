import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which hosts and addresses an outbound fetch of a user-given URL may reach. Pure code: the
 * fetcher (safe-fetch.ts) applies it to the URL's host and to every address a name resolves
 * to, right before connecting.
 *
 * The rule is an allow-list: an IPv4 address must be plain unicast, an IPv6 address must be
 * global unicast (2000::/3) and outside the special blocks inside it. Everything else
 * (loopback, private, link-local, CGNAT, unique-local, multicast, unspecified, reserved,
 * documentation, benchmarking, and IPv6 forms that embed an IPv4 address: mapped, compatible,
 * NAT64, 6to4, Teredo) is blocked. An IPv4-mapped address is judged by its IPv4 address.
 */

const BLOCKED_V4: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 reaches local services on Linux
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.31.196.0', 24], // AS112
  ['192.52.193.0', 24], // AMT
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['192.175.48.0', 24], // AS112
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

const GLOBAL_UNICAST_V6: [string, number] = ['2000::', 3];
const BLOCKED_V6: Array<[string, number]> = [
  ['2001::', 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID...
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds an IPv4 address)
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment routing
];

const v4Blocks = BLOCKED_V4.map(([a, bits]) => [ipaddr.IPv4.parse(a), bits] as [ipaddr.IPv4, number]);
const v6Blocks = BLOCKED_V6.map(([a, bits]) => [ipaddr.IPv6.parse(a), bits] as [ipaddr.IPv6, number]);
const globalUnicast = [ipaddr.IPv6.parse(GLOBAL_UNICAST_V6[0]), GLOBAL_UNICAST_V6[1]] as [ipaddr.IPv6, number];

function isPublicV4(address: ipaddr.IPv4): boolean {
  if (address.range() !== 'unicast') return false;
  return !v4Blocks.some((block) => address.match(block));
}

function isPublicV6(address: ipaddr.IPv6): boolean {
  if (address.isIPv4MappedAddress()) return isPublicV4(address.toIPv4Address());
  if (address.range() !== 'unicast') return false;
  if (!address.match(globalUnicast)) return false;
  return !v6Blocks.some((block) => address.match(block));
}

/**
 * True when `ip` (an IPv4 or IPv6 address in standard notation, brackets allowed) is a
 * public unicast address. Anything that is not a strictly written IP address is false:
 * names are resolved first, and odd IPv4 spellings (octal, hex, short) never get here
 * because the WHATWG URL parser rewrites them to dotted quads.
 */
export function isPublicAddress(ip: string): boolean {
  const bare = stripBrackets(ip);
  const kind = net.isIP(bare);
  if (kind === 4) {
    if (!ipaddr.IPv4.isValidFourPartDecimal(bare)) return false;
    return isPublicV4(ipaddr.IPv4.parse(bare));
  }
  if (kind === 6) {
    const zone = bare.indexOf('%');
    if (zone !== -1) return false; // a zone id only makes sense for link-local addresses
    return isPublicV6(ipaddr.IPv6.parse(bare));
  }
  return false;
}

export const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/** Lower-case, no brackets, no trailing dot: the form host names are compared in. */
export function normalizeHost(host: string): string {
  return stripBrackets(host.trim().toLowerCase()).replace(/\.$/, '');
}

/** Names that always mean this machine or a local network, whatever DNS says. */
export function isLocalName(host: string): boolean {
  const h = normalizeHost(host);
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    h.endsWith('.local') ||
    h.endsWith('.internal') ||
    h.endsWith('.home.arpa') ||
    h === 'metadata' // GCE's short metadata name
  );
}

/** A `host` or `host:port` exemption (a plugin's setting of hosts its fetches may reach although private). */
export interface HostExemption {
  host: string;
  port?: number;
}

/**
 * Parses exemptions: `host`, `host:port`, `[v6]`, `[v6]:port` or a bare IPv6 address, separated
 * by commas or whitespace. Invalid entries throw, so a typo fails at boot instead of silently
 * exempting nothing.
 */
export function parseHostExemptions(entries: string | string[] | undefined | null): HostExemption[] {
  const list = Array.isArray(entries) ? entries : String(entries ?? '').split(/[\s,]+/);
  const result: HostExemption[] = [];
  for (const raw of list) {
    const entry = raw.trim();
    if (!entry) continue;
    let host = entry;
    let port: number | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) {
      host = bracketed[1];
      port = bracketed[2] ? Number(bracketed[2]) : undefined;
    } else if ((entry.match(/:/g) ?? []).length === 1) {
      const [h, p] = entry.split(':');
      if (!/^\d+$/.test(p)) throw new Error(`Invalid private host exemption "${entry}": the port must be a number.`);
      host = h;
      port = Number(p);
    }
    if (!host || (port !== undefined && (port < 1 || port > 65535))) {
      throw new Error(`Invalid private host exemption "${entry}": use host or host:port.`);
    }
    result.push({ host: normalizeHost(host), port });
  }
  return result;
}

/** True when the URL's host (and port) is named in the exemptions. */
export function isExempt(url: URL, exemptions: HostExemption[]): boolean {
  if (!exemptions.length) return false;
  const host = normalizeHost(url.hostname);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return exemptions.some((e) => e.host === host && (e.port === undefined || e.port === port));
}
