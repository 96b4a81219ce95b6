import { Badge, Flex, Text } from "@radix-ui/themes";
import { useId } from "react";
import { SiteLink } from "./site-link";

/** Same mark as the favicon, so the tab and the page agree. */
export function LogoMark({ size = 30 }: { size?: number }) {
  // Header and footer both draw the mark; each gradient needs its own id, safe inside url(#...).
  const gradient = `di-logo-${useId().replace(/[^a-zA-Z0-9_-]/g, "")}`;
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden className="mk-logo-mark">
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#7c66dc" />
          <stop offset="1" stopColor="#d6409f" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={`url(#${gradient})`} />
      <path d="M9 22V10h5.5a6 6 0 0 1 0 12z" fill="#fff" />
      <circle cx="23" cy="11" r="2.5" fill="#fff" />
    </svg>
  );
}

export function Logo({ to = "/", showBeta = true }: { to?: string; showBeta?: boolean }) {
  return (
    <SiteLink to={to} className="mk-logo">
      <Flex align="center" gap="2">
        <LogoMark />
        <Text size="4" weight="bold" className="mk-logo-word">
          Design Intel
        </Text>
        {showBeta && (
          <Badge size="1" variant="soft" radius="full" className="mk-logo-beta">
            Beta
          </Badge>
        )}
      </Flex>
    </SiteLink>
  );
}
