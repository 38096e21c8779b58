import { KeyServiceClient, type ApiKeyInfo as ProtoApiKeyInfo } from '@precis/contracts';
import type { ApiKeyInfo, ApiKeyScope } from '@precis/db';
import { callMetadata, grpcCall, type RemoteAccess } from './remote-access.js';

const DEADLINE_MS = 30_000;

function fromProto(k: ProtoApiKeyInfo): ApiKeyInfo {
  return {
    name: k.name,
    prefix: k.prefix,
    scope: k.scope as ApiKeyScope,
    createdAt: k.createTime ?? new Date(0),
  };
}

// `precis keys` through a gateway's KeyService (the admin key; `precis serve` leaves one for its home).
export class RemoteKeys {
  private readonly client: KeyServiceClient;

  constructor(
    private readonly address: string,
    private readonly access: RemoteAccess,
  ) {
    this.client = new KeyServiceClient(address, access.channel);
  }

  async create(name: string, scope: ApiKeyScope): Promise<{ key: string; info: ApiKeyInfo }> {
    const res = await grpcCall<{ key: string; info?: ProtoApiKeyInfo }>(this.address, DEADLINE_MS, (o, cb) =>
      this.client.createApiKey({ name, scope }, callMetadata(this.access), o, cb),
    );
    if (!res.info)
      throw new Error(`the gateway at ${this.address} answered CreateApiKey without the key's details`);
    return { key: res.key, info: fromProto(res.info) };
  }

  async list(): Promise<ApiKeyInfo[]> {
    const res = await grpcCall<{ keys: ProtoApiKeyInfo[] }>(this.address, DEADLINE_MS, (o, cb) =>
      this.client.listApiKeys({}, callMetadata(this.access), o, cb),
    );
    return res.keys.map(fromProto);
  }

  async remove(name: string): Promise<void> {
    await grpcCall<unknown>(this.address, DEADLINE_MS, (o, cb) =>
      this.client.removeApiKey({ name }, callMetadata(this.access), o, cb),
    );
  }

  close(): void {
    this.client.close();
  }
}
