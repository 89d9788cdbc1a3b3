import { request } from 'node:http';

/** The answer of a Docker engine probe. */
export interface DockerEngineProbe {
  readonly answered: boolean;
  /** The endpoint that was asked, as `unix:///path` or `tcp://host:port`. */
  readonly endpoint: string;
  /** What the engine said, or why it did not answer. */
  readonly detail: string;
}

/**
 * Asks the Docker engine named by `DOCKER_HOST` (default `unix:///var/run/docker.sock`) for
 * `GET /_ping`. Testcontainers is only worth trying when this answers: without an engine it spends
 * seconds discovering that on its own.
 */
export async function probeDockerEngine(
  env: NodeJS.ProcessEnv,
  timeoutMs = 1500,
): Promise<DockerEngineProbe> {
  const endpoint = env.DOCKER_HOST ?? 'unix:///var/run/docker.sock';
  let target: { socketPath: string } | { host: string; port: number };
  if (endpoint.startsWith('unix://')) {
    target = { socketPath: endpoint.slice('unix://'.length) };
  } else if (endpoint.startsWith('tcp://')) {
    const url = new URL(endpoint.replace(/^tcp:/, 'http:'));
    target = { host: url.hostname, port: Number(url.port || 2375) };
  } else {
    return {
      answered: false,
      endpoint,
      detail: `DOCKER_HOST ${endpoint} is neither unix:// nor tcp://`,
    };
  }
  return new Promise((resolve) => {
    const req = request({ ...target, path: '/_ping', method: 'GET', timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const answered = res.statusCode === 200 && body.trim() === 'OK';
        resolve({
          answered,
          endpoint,
          detail: answered
            ? 'engine answered /_ping'
            : `/_ping returned ${res.statusCode}: ${body.slice(0, 80)}`,
        });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err) =>
      resolve({
        answered: false,
        endpoint,
        detail: `no Docker engine answered at ${endpoint} (${err.message})`,
      }),
    );
    req.end();
  });
}
