import { createServer, type AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { waitFor } from '@stablepay/platform/testing';
import { startHarness, type Harness } from './harness.js';

/** A free loopback port (for an SMTP server that is down now and comes up later). */
export const freePort = async (): Promise<number> => {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
};

/** A real SMTP server on loopback that keeps every message it accepts, parsed. */
export class SmtpSink {
  readonly messages: ParsedMail[] = [];
  /** While set, every recipient is refused with this SMTP code (4xx: try later, 5xx: never). */
  refuseWith?: number;
  /** SMTP connections opened to this server so far. */
  connections = 0;

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(port = 0): Promise<SmtpSink> {
    const server = new SMTPServer({
      disabledCommands: ['AUTH', 'STARTTLS'],
      authOptional: true,
      logger: false,
      // Closing is the server going down: the notifier's pooled connections are cut, not waited for.
      closeTimeout: 50,
      onConnect(_session, callback) {
        sink.connections++;
        callback();
      },
      onRcptTo(_address, _session, callback) {
        const code = sink.refuseWith;
        if (code)
          return callback(Object.assign(new Error('Mailbox unavailable, try later'), { responseCode: code }));
        callback();
      },
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((mail) => {
            sink.messages.push(mail);
            callback();
          })
          .catch((err: Error) => callback(err));
      },
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const actual = (server.server.address() as AddressInfo).port;
    const sink = new SmtpSink(server, actual);
    return sink;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}?ignoreTLS=true`;
  }

  to(address: string): ParsedMail[] {
    return this.messages.filter((m) => JSON.stringify(m.to).toLowerCase().includes(address.toLowerCase()));
  }

  waitForMessages(address: string, count: number, timeoutMs = 10_000): Promise<ParsedMail[]> {
    return waitFor(
      () => this.to(address).length >= count && this.to(address),
      timeoutMs,
      `${count} mails to ${address}`,
    );
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * For a suite about e-mails: a real SMTP sink and the notifier sending to it, started before the
 * suite and closed after it. Read `h` and `smtp` inside the tests (they exist once `before` ran).
 */
export const smtpSuite = (): { h: Harness; smtp: SmtpSink } => {
  const suite = {} as { h: Harness; smtp: SmtpSink };
  before(async () => {
    suite.smtp = await SmtpSink.start();
    suite.h = await startHarness({ env: { SMTP_URL: suite.smtp.url } });
  });
  after(async () => {
    await suite.h?.close();
    await suite.smtp?.close();
  });
  return suite;
};
