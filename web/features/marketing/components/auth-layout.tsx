import { ArrowLeftIcon, CheckIcon } from "@radix-ui/react-icons";
import { Card, Flex, Heading, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { SiteLink } from "./site-link";
import { Logo } from "./logo";

export interface AuthLayoutProps {
  title: string;
  subtitle: string;
  /** The pitch on the brand panel (hidden on small screens). */
  pitch: { title: string; points: string[] };
  children: ReactNode;
}

/** Split screen for the sign-in and sign-up pages: brand panel left, the form right. */
export function AuthLayout({ title, subtitle, pitch, children }: AuthLayoutProps) {
  return (
    <div className="mk-auth">
      <aside className="mk-auth-brand" aria-label="About Design Intel">
        <div className="mk-hero-glow" aria-hidden />
        <Flex direction="column" justify="between" height="100%" gap="8" className="mk-auth-brand-inner">
          <Logo />
          <Flex direction="column" gap="5">
            <Heading asChild size="8" className="mk-hero-title">
              <p>{pitch.title}</p>
            </Heading>
            <Flex asChild direction="column" gap="3">
              <ul className="mk-plain-list">
                {pitch.points.map((p) => (
                  <li key={p}>
                    <Flex align="center" gap="2">
                      <CheckIcon className="mk-check" aria-hidden />
                      <Text size="3">{p}</Text>
                    </Flex>
                  </li>
                ))}
              </ul>
            </Flex>
          </Flex>
          <Text size="1" color="gray">
            Design Intel · private beta
          </Text>
        </Flex>
      </aside>
      <main id="main" className="mk-auth-main">
        <Flex direction="column" gap="5" className="mk-auth-column">
          <Flex justify="between" align="center">
            <span className="mk-auth-mobile-logo">
              <Logo />
            </span>
            <SiteLink to="/" className="mk-back-link">
              <ArrowLeftIcon aria-hidden /> Back to homepage
            </SiteLink>
          </Flex>
          <Card size={{ initial: "3", sm: "4" }} className="mk-auth-card">
            <Flex direction="column" gap="2" mb="5">
              <Heading as="h1" size="7">
                {title}
              </Heading>
              <Text as="p" size="2" color="gray">
                {subtitle}
              </Text>
            </Flex>
            {children}
          </Card>
        </Flex>
      </main>
    </div>
  );
}
