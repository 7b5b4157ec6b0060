import NextLink from "next/link";
import type { ComponentProps } from "react";

/**
 * Next's Link without prefetching: every page here is dynamic (the header reads the session), and
 * for a dynamic page Next's prefetch makes two requests per link in view, the route's tree and its
 * metadata (which runs the page's generateMetadata on the server), without the page itself, so a
 * click still waits for the page. That was half of a page's requests for nothing; a link is now
 * fetched when it is followed. ESLint keeps next/link to this file.
 */
export default function Link(props: ComponentProps<typeof NextLink>) {
  return <NextLink prefetch={false} {...props} />;
}
