import { describe, expect, it } from 'vitest';
import { addressRefusal } from './public-address.ts';

describe('addressRefusal', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'endereço não especificado'],
    ['::', 'endereço não especificado'],
    ['10.0.0.1', 'rede privada'],
    ['172.16.0.1', 'rede privada'],
    ['172.31.255.255', 'rede privada'],
    ['192.168.1.1', 'rede privada'],
    ['100.64.0.1', 'rede compartilhada (CGNAT)'],
    ['100.100.100.200', 'rede compartilhada (CGNAT)'],
    ['169.254.169.254', 'link-local (inclui os metadados da nuvem)'],
    ['fd00:ec2::254', 'metadados da nuvem'],
    ['fc00::1', 'rede privada (ULA)'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'endereço inválido'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reservado'],
    ['240.0.0.1', 'reservado'],
    ['192.0.2.10', 'documentação'],
    ['2001:db8::1', 'documentação'],
    ['2002:7f00:1::1', 'reservado (6to4)'],
    ['64:ff9b::7f00:1', 'tradução NAT64'],
    ['::7f00:1', 'reservado'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'link-local (inclui os metadados da nuvem)'],
    ['::FFFF:10.0.0.1', 'rede privada'],
    ['not an address', 'endereço inválido'],
  ])('refuses %s (%s)', (address, label) => {
    expect(addressRefusal(address)).toBe(label);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '::ffff:808:808'])(
    'allows the public %s',
    (address) => {
      expect(addressRefusal(address)).toBeNull();
    },
  );

  it('lets exactly 127.0.0.1 and ::1 through with allowLoopback, and nothing else refused', () => {
    const open = { allowLoopback: true };
    expect(addressRefusal('127.0.0.1', open)).toBeNull();
    expect(addressRefusal('::1', open)).toBeNull();
    expect(addressRefusal('::ffff:127.0.0.1', open)).toBeNull();
    expect(addressRefusal('127.0.0.2', open)).toBe('loopback');
    expect(addressRefusal('0.0.0.0', open)).toBe('endereço não especificado');
    expect(addressRefusal('169.254.169.254', open)).toBe('link-local (inclui os metadados da nuvem)');
    expect(addressRefusal('10.0.0.1', open)).toBe('rede privada');
  });
});
