// A real SMTP server for bench/mail-transport.ts: accepts every message and discards it, and tells
// its parent the port it listens on.
import { createRequire } from 'node:module';

const { SMTPServer } = createRequire(new URL('../services/notifier/package.json', import.meta.url))(
  'smtp-server',
);
const server = new SMTPServer({
  disabledCommands: ['AUTH', 'STARTTLS'],
  authOptional: true,
  logger: false,
  onData(stream, _session, callback) {
    stream.resume();
    stream.once('end', () => callback());
  },
});
server.listen(0, '127.0.0.1', () => process.send(server.server.address().port));
