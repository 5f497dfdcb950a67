/**
 * testcontainers is loaded only when no PostgreSQL or RabbitMQ is reachable; it throws at once when
 * there is no container engine either, and that message says what to start.
 */
export const loadContainers = async () => {
  const tc = await import('testcontainers');
  try {
    await tc.getContainerRuntimeClient();
  } catch (err) {
    throw new Error(
      'No PostgreSQL/RabbitMQ reachable (set DATABASE_URL and AMQP_URL) and no container runtime for testcontainers: ' +
        (err instanceof Error ? err.message : String(err)),
    );
  }
  const { GenericContainer, Wait } = tc;
  class PostgreSqlContainer {
    constructor(readonly image: string) {}
    async start() {
      const c = await new GenericContainer(this.image)
        .withEnvironment({ POSTGRES_PASSWORD: 'postgres', POSTGRES_HOST_AUTH_METHOD: 'trust' })
        .withExposedPorts(5432)
        .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
        .start();
      return {
        stop: () => c.stop(),
        getConnectionUri: () =>
          `postgres://postgres:postgres@${c.getHost()}:${c.getMappedPort(5432)}/postgres`,
      };
    }
  }
  class RabbitMQContainer {
    constructor(readonly image: string) {}
    async start() {
      const c = await new GenericContainer(this.image)
        .withExposedPorts(5672)
        .withWaitStrategy(Wait.forLogMessage(/Server startup complete/))
        .start();
      return {
        stop: () => c.stop(),
        getAmqpUrl: () => `amqp://guest:guest@${c.getHost()}:${c.getMappedPort(5672)}`,
      };
    }
  }
  return { PostgreSqlContainer, RabbitMQContainer };
};
