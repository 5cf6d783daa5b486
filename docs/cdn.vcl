# What docs/serving-and-security.md#behind-a-cdn asks of a CDN, written for Varnish (7.x), and tested as it is
# (tests/specs/canary.test.ts). Only the backend's address is the site's own: point it at the shell's origin (nginx,
# or port 3000). Everything else is the origin's Cache-Control, which Varnish honours as it comes.
vcl 4.1;

backend shell {
    .host = "127.0.0.1";
    .port = "3000";
}

sub vcl_recv {
    # The three cookies the origin reads: a browser previewing a release, overriding a remote with a dev server, or on
    # a side of a running canary. Their answers are personal (private, no-store): passed, never looked up or kept.
    if (req.http.Cookie ~ "(^|;\s*)(nativegtm_preview|nativegtm_override|nativegtm_bucket)=") {
        return (pass);
    }
    # The origin reads no other cookie: without them, every visitor shares the cached documents.
    unset req.http.Cookie;
}
