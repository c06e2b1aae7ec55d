/**
 * Webhook addresses against SSRF (D83, D125, D126): IPv6 forms that carry an IPv4 address are
 * judged by it, and a delivery connects to the address that was checked, over plain HTTP and TLS,
 * with the host's name as Host, SNI and the name the certificate must carry.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { checkDeliveryHost, isPrivateAddress, pinnedRequest } from '../../src/modules/webhooks/addresses'
import { expectValidation, makeTestApp } from '../helpers/app'
import { tempDir } from '../helpers/process'

const BOTH = ['job.succeeded', 'job.failed']

describe('IPv6 forms that embed IPv4 are judged by the embedded address', () => {
  const privateForms = [
    '::ffff:7f00:1', // mapped 127.0.0.1
    '::ffff:0:7f00:1', // SIIT-translated 127.0.0.1 (the issue's [::ffff:0:7f00:1])
    '::ffff:0:a00:1', // translated 10.0.0.1
    '::a9fe:a9fe', // compatible 169.254.169.254
    '64:ff9b::7f00:1', // NAT64 127.0.0.1
    '64:ff9b::c0a8:101', // NAT64 192.168.1.1
    '64:ff9b:1::7f00:1', // local-use NAT64: refused whole
    '64:ff9b:1:ffff::808:808',
    '2002:7f00:1::', // 6to4 of 127.0.0.1
    '2002:a9fe:a9fe::1', // 6to4 of 169.254.169.254
    '2001:0:7f00:1::1', // Teredo whose server is 127.0.0.1
    '2001:0:808:808:0:0:f5ff:fffe', // Teredo whose client is 10.0.0.1 (stored inverted)
    '100::1', // discard-only
    '100::ffff:1',
    '2001:2::1', // benchmarking, in the IETF block
    '2001:10::1', // ORCHID
    '3fff::1', // documentation
    '5f00::1', // SRv6
  ]
  const publicForms = [
    '::ffff:808:808', // mapped 8.8.8.8
    '::ffff:0:808:808', // translated 8.8.8.8
    '64:ff9b::808:808', // NAT64 8.8.8.8
    '2002:808:808::1', // 6to4 of 8.8.8.8
    '2001:0:808:808:0:0:f7f7:f7f7', // Teredo, server and client public
    '2606:4700::1111',
    '2001:4860:4860::8888',
  ]

  test.each(privateForms)('%s is refused', (address) => expect(isPrivateAddress(address)).toBe(true))
  test.each(publicForms)('%s is public', (address) => expect(isPrivateAddress(address)).toBe(false))

  test.each(['http://[::ffff:0:7f00:1]/hook', 'http://[2002:7f00:1::]/hook', 'http://[64:ff9b:1::7f00:1]/hook', 'http://[100::1]/hook'])(
    "the issue's %s is refused at registration with 400 at /url",
    async (url) => {
      const t = await makeTestApp()
      const response = await t.call('POST', '/api/v1/webhooks', { body: { url, events: BOTH } })
      expectValidation(response, ['/url'])
      expect(response.body.details[0].message).toMatch(/private, loopback or reserved address/)
    },
  )

  test('the refusal names the flag that allows private addresses, once (D336)', async () => {
    const t = await makeTestApp()
    for (const url of ['http://localhost:8080/hook', 'http://10.0.0.7/hook']) {
      const response = await t.call('POST', '/api/v1/webhooks', { body: { url, events: BOTH } })
      expectValidation(response, ['/url'])
      expect(response.body.details[0].message).toEndWith('which webhooks may not reach unless the server is started with --webhooks-allow-private')
      expect(response.body.error.split('--webhooks-allow-private').length).toBe(2)
    }
  })
})

describe('a delivery connects to the address it checked (D126)', () => {
  test('the host is resolved once: the first address is the one to connect to; one private address refuses all', async () => {
    const lookups: string[] = []
    const lookup = async (host: string) => {
      lookups.push(host)
      return [{ address: '93.184.216.34' }, { address: '2606:2800:220:1:248:1893:25c8:1946' }]
    }
    expect(await checkDeliveryHost('hooks.example.com', lookup)).toEqual({ ok: true, address: '93.184.216.34' })
    expect(lookups).toEqual(['hooks.example.com'])
    const rebinding = async () => [{ address: '93.184.216.34' }, { address: '::ffff:0:7f00:1' }]
    expect(await checkDeliveryHost('hooks.example.com', rebinding)).toEqual({ ok: false, error: 'private address refused', retry: false })
  })

  test('the request names the address; Host keeps the name and port; TLS verifies the name', () => {
    expect(pinnedRequest('http://hooks.example.com:8080/in?x=1', '93.184.216.34')).toEqual({
      url: 'http://93.184.216.34:8080/in?x=1',
      headers: { host: 'hooks.example.com:8080' },
    })
    expect(pinnedRequest('https://hooks.example.com/in', '2606:4700::1111')).toEqual({
      url: 'https://[2606:4700::1111]/in',
      headers: { host: 'hooks.example.com' },
      tls: { serverName: 'hooks.example.com' },
    })
    expect(pinnedRequest('https://93.184.216.34/in', '93.184.216.34')).toEqual({ url: 'https://93.184.216.34/in', headers: {} })
  })

  describe('against real receivers on this machine, by names that do not resolve', () => {
    const dir = tempDir('extractd-tls-')
    const certificate = (name: string) => {
      const [key, cert] = [join(dir.path, `${name}.key`), join(dir.path, `${name}.pem`)]
      const made = Bun.spawnSync(
        [
          'openssl',
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          key,
          '-out',
          cert,
          '-days',
          '1',
          '-subj',
          `/CN=${name}`,
          '-addext',
          `subjectAltName=DNS:${name}`,
        ],
        {
          stderr: 'pipe',
        },
      )
      if (made.exitCode !== 0) throw new Error(`openssl: ${made.stderr.toString()}`)
      return { key: Bun.file(key), cert: Bun.file(cert) }
    }
    let plain: ReturnType<typeof Bun.serve>
    let secure: ReturnType<typeof Bun.serve>
    let ca: string
    const hosts: string[] = []

    beforeAll(async () => {
      const hook = certificate('hook.invalid')
      const other = certificate('other.invalid')
      ca = `${await hook.cert.text()}\n${await other.cert.text()}`
      const answer = (request: Request) => {
        hosts.push(request.headers.get('host') ?? '')
        return new Response(null, { status: 204 })
      }
      plain = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: answer })
      // The certificate is chosen by the SNI the client sends: other.invalid's is the default.
      secure = Bun.serve({ hostname: '127.0.0.1', port: 0, tls: [{ ...other }, { ...hook, serverName: 'hook.invalid' }], fetch: answer })
    })
    afterAll(() => {
      plain?.stop(true)
      secure?.stop(true)
      dir.remove()
    })

    const send = (request: ReturnType<typeof pinnedRequest>) =>
      fetch(request.url, { method: 'POST', headers: request.headers, ...(request.tls && { tls: { ...request.tls, ca } }) })

    test('plain HTTP reaches the checked address, with the name as Host, though the name does not resolve', async () => {
      const response = await send(pinnedRequest(`http://hook.invalid:${plain.port}/in`, '127.0.0.1'))
      expect(response.status).toBe(204)
      expect(hosts.pop()).toBe(`hook.invalid:${plain.port}`)
    })

    test("TLS sends the name as SNI and accepts the name's certificate", async () => {
      const response = await send(pinnedRequest(`https://hook.invalid:${secure.port}/in`, '127.0.0.1'))
      expect(response.status).toBe(204)
      expect(hosts.pop()).toBe(`hook.invalid:${secure.port}`)
    })

    test('a certificate for another name is refused', async () => {
      const pinned = pinnedRequest(`https://elsewhere.invalid:${secure.port}/in`, '127.0.0.1')
      await expect(send(pinned)).rejects.toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' })
    })
  })
})
