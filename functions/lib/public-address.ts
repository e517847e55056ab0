/**
 * Which IP addresses a webhook may be delivered to (ADR-0231): only
 * globally reachable unicast. IPv4 follows IANA's special-purpose registry; IPv6 is allowed only
 * inside 2000::/3 (global unicast), minus its special blocks, so loopback, unspecified,
 * unique-local (fd00:ec2::254, the EC2 metadata service, among them), link-local, multicast and
 * NAT64 all fall outside. An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged as its IPv4.
 * The ranges are checked with node:net's BlockList.
 */
import { BlockList, isIP } from 'node:net';

/** Each refused range with the words a delivery log shows for it (pt-BR). */
const refusedV4: readonly (readonly [network: string, prefix: number, label: string])[] = [
  ['0.0.0.0', 8, 'endereço não especificado'],
  ['10.0.0.0', 8, 'rede privada'],
  ['100.64.0.0', 10, 'rede compartilhada (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (inclui os metadados da nuvem)'],
  ['172.16.0.0', 12, 'rede privada'],
  ['192.0.0.0', 24, 'reservado'],
  ['192.0.2.0', 24, 'documentação'],
  ['192.88.99.0', 24, 'reservado'],
  ['192.168.0.0', 16, 'rede privada'],
  ['198.18.0.0', 15, 'reservado'],
  ['198.51.100.0', 24, 'documentação'],
  ['203.0.113.0', 24, 'documentação'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reservado'],
];

/** Blocks inside 2000::/3 that are not globally reachable. */
const refusedGlobalV6: readonly (readonly [network: string, prefix: number, label: string])[] = [
  ['2001::', 23, 'reservado'],
  ['2001:db8::', 32, 'documentação'],
  ['2002::', 16, 'reservado (6to4)'],
  ['3fff::', 20, 'documentação'],
];

/** Outside 2000::/3, the names a log gives the common cases; anything else there is 'reservado'. */
const namedOutsideV6: readonly (readonly [network: string, prefix: number, label: string])[] = [
  ['::', 128, 'endereço não especificado'],
  ['::1', 128, 'loopback'],
  ['fd00:ec2::254', 128, 'metadados da nuvem'],
  ['fc00::', 7, 'rede privada (ULA)'],
  ['fe80::', 10, 'link-local'],
  ['ff00::', 8, 'multicast'],
  ['64:ff9b::', 96, 'tradução NAT64'],
];

interface Ranges {
  /** Every range at once, for the common answer (allowed). */
  all: BlockList;
  /** One list per range, to name the range of a refused address. */
  each: readonly (readonly [BlockList, string])[];
  family: 'ipv4' | 'ipv6';
}

function rangesOf(ranges: readonly (readonly [string, number, string])[], family: 'ipv4' | 'ipv6'): Ranges {
  const all = new BlockList();
  const each = ranges.map(([network, prefix, label]) => {
    all.addSubnet(network, prefix, family);
    const one = new BlockList();
    one.addSubnet(network, prefix, family);
    return [one, label] as const;
  });
  return { all, each, family };
}

/** The label of the range holding `address`, or null when none does. */
function rangeOf(ranges: Ranges, address: string): string | null {
  if (!ranges.all.check(address, ranges.family)) return null;
  return ranges.each.find(([list]) => list.check(address, ranges.family))?.[1] ?? null;
}

const v4Refused = rangesOf(refusedV4, 'ipv4');
const v6RefusedGlobal = rangesOf(refusedGlobalV6, 'ipv6');
const v6NamedOutside = rangesOf(namedOutsideV6, 'ipv6');
const v6GlobalUnicast = rangesOf([['2000::', 3, 'global']], 'ipv6');

/** WHATWG's IPv6 serialisation: one form per address (lowercase, zeros compressed, no dotted quad). */
function canonicalV6(address: string): string {
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

/** The embedded IPv4 of an IPv4-mapped IPv6 address (::ffff:a.b.c.d in any spelling), or null. */
function mappedV4(address: string): string | null {
  const match = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonicalV6(address));
  if (!match) return null;
  const high = Number.parseInt(match[1]!, 16);
  const low = Number.parseInt(match[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/**
 * Why `address` (a literal IPv4 or IPv6, as DNS answers or a URL holds it) may not receive a
 * webhook, in words for the delivery log, or null when it may. `allowLoopback` (the local runtime
 * only) lets exactly 127.0.0.1 and ::1 through; the rest of loopback stays refused.
 */
export function addressRefusal(address: string, options: { allowLoopback?: boolean } = {}): string | null {
  const family = isIP(address);
  if (family === 4) {
    if (options.allowLoopback && address === '127.0.0.1') return null;
    return rangeOf(v4Refused, address);
  }
  // isIP accepts a zone (fe80::1%eth0); a zone only ever names a local link.
  if (family !== 6 || address.includes('%')) return 'endereço inválido';
  const v4 = mappedV4(address);
  if (v4 !== null) return addressRefusal(v4, options);
  if (options.allowLoopback && canonicalV6(address) === '::1') return null;
  if (rangeOf(v6GlobalUnicast, address) === null) return rangeOf(v6NamedOutside, address) ?? 'reservado';
  return rangeOf(v6RefusedGlobal, address);
}
