// The Next.js floor (bench 1): a route handler that does nothing, served by `next start`, against the bare server's
// /health. Dynamic, so each request runs the handler rather than serving a file prerendered at build.
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ status: true, message: "OK", data: {} });
}
