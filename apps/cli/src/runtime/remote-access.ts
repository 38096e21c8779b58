import { readFileSync } from 'node:fs';
import { type ChannelCredentials, credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { API_KEY_PATTERN } from '@precis/db';

// How the CLI reaches a gateway: the API key it sends and the channel (TLS when PRECIS_TLS_CA
// names the CA or certificate to trust, else plaintext).
export interface RemoteAccess {
  key: string;
  channel: ChannelCredentials;
}

// From the environment only: a key on the command line would show in `ps` and shell history.
export function remoteAccess(env: NodeJS.ProcessEnv): RemoteAccess {
  const key = env.PRECIS_API_KEY?.trim();
  if (!key)
    throw new Error(
      "--remote needs an API key: set PRECIS_API_KEY (create one with `precis keys create <name>` against the gateway's database)",
    );
  if (!API_KEY_PATTERN.test(key))
    throw new Error(
      `PRECIS_API_KEY is not a Precis API key (expected precis_ and 43 characters, got ${key.length} characters); copy it as \`precis keys create\` printed it`,
    );
  const ca = env.PRECIS_TLS_CA?.trim();
  if (!ca) return { key, channel: credentials.createInsecure() };
  let pem: Buffer;
  try {
    pem = readFileSync(ca);
  } catch (err) {
    throw new Error(
      `PRECIS_TLS_CA=${ca} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}); give the PEM file of the gateway's certificate or its CA`,
    );
  }
  return { key, channel: credentials.createSsl(pem) };
}

// A key on a plaintext channel (tests and loopback tooling).
export function insecureAccess(key: string): RemoteAccess {
  return { key, channel: credentials.createInsecure() };
}

export function callMetadata(access: RemoteAccess, extra: Record<string, string> = {}): Metadata {
  const md = new Metadata();
  md.set('authorization', `Bearer ${access.key}`);
  for (const [k, v] of Object.entries(extra)) md.set(k, v);
  return md;
}

// A failed gateway call, with its gRPC status: UNAVAILABLE (the gateway restarting, or its
// database or bus down) and DEADLINE_EXCEEDED are worth another try.
export class GatewayCallError extends Error {
  constructor(
    message: string,
    readonly code: status,
  ) {
    super(message);
  }

  get transient(): boolean {
    return this.code === status.UNAVAILABLE || this.code === status.DEADLINE_EXCEEDED;
  }
}

// One unary call to a gateway with a deadline; its error as the CLI user should read it.
export function grpcCall<T>(
  address: string,
  deadlineMs: number,
  invoke: (
    options: { deadline: Date },
    callback: (error: ServiceError | null, response: T) => void,
  ) => unknown,
): Promise<T> {
  return new Promise((resolve, reject) => {
    invoke({ deadline: new Date(Date.now() + deadlineMs) }, (error, response) => {
      if (error) reject(explainGrpcError(address, error));
      else resolve(response);
    });
  });
}

// A gRPC error as the CLI user should read it; the gateway's own message otherwise (spec and
// dataset problems name their file, record and field).
export function explainGrpcError(address: string, error: ServiceError): GatewayCallError {
  const fail = (message: string) => new GatewayCallError(message, error.code);
  switch (error.code) {
    case status.UNAVAILABLE:
      // The gateway's own answer (its database or bus down) carries a log reference.
      if (/\(reference [0-9a-f]{8}\)/.test(error.details))
        return fail(`the gateway at ${address} answered: ${error.details}`);
      return fail(
        `cannot reach the gateway at ${address} (${error.details || 'unavailable'}); check --remote host:port, that the gateway is running, and PRECIS_TLS_CA if it uses TLS`,
      );
    case status.DEADLINE_EXCEEDED:
      return fail(`the gateway at ${address} did not answer in time`);
    case status.UNAUTHENTICATED:
      return fail(`the gateway at ${address} refused the API key in PRECIS_API_KEY: ${error.details}`);
    default:
      return fail(error.details || error.message);
  }
}
