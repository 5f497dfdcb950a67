import { connect, createServer, type Server, type Socket } from 'node:net';

export interface ServiceProxy {
  port: number;
  close(): Promise<void>;
}

/**
 * A service's one address in front of its replicas, as a Kubernetes Service: each connection goes to
 * the next replica in turn; a replica that refuses the connection (dead, restarting) is skipped for
 * the next one. A connection already open to a replica that dies is cut, as it would be in a cluster.
 */
export const startServiceProxy = async (
  port: number,
  backends: number[],
  host = '127.0.0.1',
): Promise<ServiceProxy> => {
  let next = 0;
  const open = new Set<Socket>();
  const forward = (client: Socket, tried: number) => {
    const backend = backends[next++ % backends.length]!;
    const upstream = connect(backend, host);
    open.add(upstream);
    upstream.once('close', () => open.delete(upstream));
    const onRefused = () => {
      upstream.destroy();
      if (tried + 1 < backends.length && !client.destroyed) forward(client, tried + 1);
      else client.destroy();
    };
    upstream.once('error', onRefused);
    upstream.once('connect', () => {
      upstream.off('error', onRefused);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
      client.resume();
    });
  };
  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    open.add(client);
    client.once('close', () => open.delete(client));
    client.on('error', () => undefined);
    forward(client, 0);
  });
  await new Promise<void>((res, rej) => server.once('error', rej).listen(port, host, () => res()));
  return {
    port,
    close: () =>
      new Promise<void>((res) => {
        for (const s of open) s.destroy();
        server.close(() => res());
      }),
  };
};
