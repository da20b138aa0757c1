// The fleet's nginx configuration (the `http { }` block; @boomerang/test-kit/nginx adds the process settings).
//
// - 2026-07-28 traffic carries no session: `upstream fleet` round-robins every request, so the rounds of one flow
//   spread over the instances (their state is sealed, so any instance serves any round). A connection refused by
//   an instance that is down goes to the next one (`proxy_next_upstream error timeout`, nginx's default); a
//   request already sent to an instance that dies is NOT retried (POST is not idempotent): its client sees 502.
//   So a planned restart first takes the instance out of the round robin (`down`, then a reload), and only then
//   stops it: nothing new reaches it, and what it already has finishes (its graceful close).
//   So a planned restart first takes the instance out of the round robin (`down`, then a reload), and only then
//   stops it: nothing new reaches it, and what it already has finishes (its graceful close).
// - 2025-11-25 sessions live in the instance that opened them: each instance prefixes its session ids with its
//   name (`legacy: { sessionIdPrefix }`), and a `map` on `Mcp-Session-Id` sends a session's requests back to it.
// - Event streams (`subscriptions/listen`, SSE answers) pass through unbuffered and may stay open for an hour.
// - Every answer says which instance served it (`X-Fleet-Upstream`), and the access log records it: how the fleet
//   counts requests per instance and attributes the failures of a killed instance.

/** One instance as nginx sees it. */
export interface NginxInstance {
  /** Its name, also its session id prefix (`i1`). */
  readonly name: string;
  readonly port: number;
}

/**
 * The `http { }` block for `instances`, listening on `port`, logging into `dir`. The instances named in
 * `draining` are marked `down` in the round robin (a rolling restart takes an instance out of it, reloads nginx,
 * lets its requests finish, stops it, starts the new one and puts it back), while their sessions still reach them.
 */
export function nginxHttpBlock(
  instances: readonly NginxInstance[],
  port: number,
  dir: string,
  draining: ReadonlySet<string> = new Set(),
): string {
  const servers = instances.map(
    (instance) =>
      `    server 127.0.0.1:${instance.port} max_fails=1 fail_timeout=2s${draining.has(instance.name) ? ' down' : ''};`,
  );
  const pinned = instances.map(
    (instance) => `  upstream fleet_${instance.name} { server 127.0.0.1:${instance.port}; }`,
  );
  const routes = instances.map((instance) => `    ~^${instance.name}\\. fleet_${instance.name};`);
  return `
  log_format fleet '$msec $status "$upstream_addr" "$upstream_status" $request_time "$http_mcp_session_id" "$http_mcp_method"';
  access_log ${dir}/access.log fleet;

  upstream fleet {
${servers.join('\n')}
  }
${pinned.join('\n')}

  # Modern requests (no session id) round-robin; a 2025-11-25 session goes back to the instance that opened it.
  map $http_mcp_session_id $fleet_upstream {
    default fleet;
${routes.join('\n')}
  }

  server {
    listen 127.0.0.1:${port};
    # No keep-alive towards clients: on every reload (a rolling restart makes two) nginx's old worker closes its
    # idle keep-alive connections, and a client that sends its next POST on one at that moment gets "other side
    # closed" for a request it may not retry. A connection per request costs a handshake, and no flow.
    keepalive_timeout 0;
    location /mcp {
      proxy_pass http://$fleet_upstream;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 3600s;
      proxy_send_timeout 3600s;
      proxy_connect_timeout 2s;
      add_header X-Fleet-Upstream $upstream_addr always;
    }
    location / {
      return 404;
    }
  }
`;
}
