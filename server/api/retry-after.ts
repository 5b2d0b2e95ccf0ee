import type { FastifyReply } from 'fastify';

/** Passes a code screen's answer on, with its wait before another code also sent as the Retry-After header. */
export function withRetryAfter<Answer extends { parameters: { retry_after: number } }>(reply: FastifyReply, answer: Answer): Answer {
  reply.header('retry-after', String(answer.parameters.retry_after));
  return answer;
}
