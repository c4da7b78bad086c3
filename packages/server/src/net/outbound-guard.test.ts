import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../test/free-port.js";
import { isPublicAddress, outboundFetch, resolvePublic, UNREACHABLE } from "./outbound-guard.js";

describe("which addresses are public", () => {
  const refused = [
    // IPv4: loopback, private, link-local (the cloud's metadata address), carrier-grade NAT, unspecified,
    // broadcast, multicast, reserved, documentation, benchmarking
    "127.0.0.1",
    "127.255.255.254",
    "10.0.0.1",
    "172.16.5.4",
    "192.168.0.1",
    "169.254.169.254",
    "169.254.1.1",
    "100.64.0.1",
    "0.0.0.0",
    "0.1.2.3",
    "255.255.255.255",
    "224.0.0.1",
    "240.0.0.1",
    "192.0.0.1",
    "192.0.2.1",
    "198.51.100.7",
    "203.0.113.9",
    "198.18.0.1",
    // IPv6: loopback, unspecified, link-local, unique-local, multicast, documentation, discard, site-local
    "::1",
    "::",
    "fe80::1",
    "fe80::1%eth0",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",
    "2001:db8::1",
    "100::1",
    "fec0::1",
    // IPv4 inside IPv6: mapped, compatible (deprecated, yet connectable), translated, NAT64 (both prefixes)
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "::ffff:a9fe:a9fe",
    "::a9fe:a9fe",
    "::169.254.169.254",
    "::127.0.0.1",
    "::7f00:1",
    "::10.0.0.1",
    "::0.0.0.2",
    "::ffff:0:127.0.0.1",
    "64:ff9b::7f00:1",
    "64:ff9b::169.254.169.254",
    "64:ff9b::10.0.0.1",
    "64:ff9b:1::808:808",
    // 6to4 and Teredo carry IPv4 addresses of their own
    "2002:7f00:1::1",
    "2002:808:808::1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    // outside global unicast (2000::/3)
    "4000::1",
    // not an address
    "example.com",
    "127.1",
    "0x7f.0.0.1",
    "",
  ];
  const allowed = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "2606:4700:4700::1111",
    "2a00:1450:4001:82a::200e",
    "::ffff:8.8.8.8",
    "::8.8.8.8",
    "64:ff9b::808:808",
  ];

  it("refuses every non-public form, the embedded IPv4 of IPv6 classified as itself", () => {
    expect(refused.filter((a) => isPublicAddress(a))).toEqual([]);
  });

  it("allows public unicast addresses", () => {
    expect(allowed.filter((a) => !isPublicAddress(a))).toEqual([]);
  });

  it("refuses names of this machine and literals before resolving", async () => {
    for (const host of ["localhost", "api.localhost", "LOCALHOST.", "[::1]", "[::a9fe:a9fe]", "127.0.0.1"])
      expect([host, await resolvePublic(host)]).toEqual([host, "refused"]);
    expect(await resolvePublic("[2606:4700:4700::1111]")).toBe("public");
    expect(await resolvePublic("nowhere.invalid")).toBe("unresolved");
  });
});

describe("the guarded fetch", () => {
  let server: http.Server;
  let base: string;
  let raw: net.Server;
  let rawPort: number;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/redirect") {
        res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" });
        return res.end();
      }
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json", "x-seen": req.method ?? "" });
        res.end(JSON.stringify({ body, type: req.headers["content-type"] ?? null }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    // An open port that speaks no HTTP: it closes every connection at once.
    raw = net.createServer((socket) => socket.destroy());
    await new Promise<void>((r) => raw.listen(0, "127.0.0.1", r));
    rawPort = (raw.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await new Promise((r) => raw.close(r));
  });

  const failure = (p: Promise<unknown>) =>
    p.then(
      () => "answered",
      (err: Error) => err.message,
    );

  it("refuses this machine without the opt-in, by literal and by name", async () => {
    const guarded = outboundFetch(false);
    const port = new URL(base).port;
    for (const url of [
      base,
      `http://localhost:${port}/`,
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
    ])
      expect([url, await failure(guarded(url))]).toEqual([url, UNREACHABLE]);
  });

  it("says the same for a refusal, a closed port, an open port that is no HTTP server and a name that does not resolve", async () => {
    const open = outboundFetch(true);
    const closed = await freePort();
    const messages = [
      await failure(outboundFetch(false)(`http://127.0.0.1:${rawPort}/`)),
      await failure(open(`http://127.0.0.1:${closed}/`)),
      await failure(open(`http://127.0.0.1:${rawPort}/`)),
      await failure(open(`https://127.0.0.1:${rawPort}/`)),
      await failure(open("https://nowhere.invalid/")),
      await failure(open("ftp://example.com/")),
    ];
    expect(new Set(messages)).toEqual(new Set([UNREACHABLE]));
  });

  it("with the opt-in, answers as fetch would, a form body sent with its type, and never follows a redirect", async () => {
    const open = outboundFetch(true);
    const res = await open(`${base}/token`, {
      method: "POST",
      headers: { accept: "application/json" },
      body: new URLSearchParams({ grant_type: "authorization_code", code: "x" }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-seen")).toBe("POST");
    expect(await res.json()).toEqual({
      body: "grant_type=authorization_code&code=x",
      type: "application/x-www-form-urlencoded;charset=UTF-8",
    });
    const redirect = await open(`${base}/redirect`, { redirect: "manual" } as never);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("location")).toBe("http://169.254.169.254/latest/meta-data");
  });

  it("gives up when its signal is aborted, with the same message", async () => {
    const hang = net.createServer(() => {});
    await new Promise<void>((r) => hang.listen(0, "127.0.0.1", r));
    try {
      const port = (hang.address() as net.AddressInfo).port;
      const started = Date.now();
      const message = await failure(
        outboundFetch(true)(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(200) }),
      );
      expect(message).toBe(UNREACHABLE);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      hang.close();
    }
  });
});
