import { GrpcException, GrpcStatus } from '@nestjs/microservices';
import type { DomainError, DomainErrorKind } from '@precis/engine';

// The gRPC status of each kind of domain error: the one place gRPC meets the use cases' errors.
export const GRPC_STATUS: Readonly<Record<DomainErrorKind, GrpcStatus>> = {
  'not-found': GrpcStatus.NOT_FOUND,
  'invalid-input': GrpcStatus.INVALID_ARGUMENT,
  conflict: GrpcStatus.ALREADY_EXISTS,
  precondition: GrpcStatus.FAILED_PRECONDITION,
  permission: GrpcStatus.PERMISSION_DENIED,
  limit: GrpcStatus.RESOURCE_EXHAUSTED,
  unavailable: GrpcStatus.UNAVAILABLE,
  deadline: GrpcStatus.DEADLINE_EXCEEDED,
  internal: GrpcStatus.INTERNAL,
};

// The status a caller receives, with the domain error's message unchanged.
export function toGrpcException(err: DomainError): GrpcException {
  return new GrpcException(err.message, GRPC_STATUS[err.kind]);
}
