import { Container, Flex, Heading, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";

export interface CtaBandProps {
  id: string;
  title: string;
  lede: string;
  /** The form or button that does the joining. */
  action: ReactNode;
}

/** The gradient closing call to action used by the landing, pricing and features pages. */
export function CtaBand({ id, title, lede, action }: CtaBandProps) {
  return (
    <section className="mk-section" aria-labelledby={id}>
      <Container size="3" px={{ initial: "4", md: "6" }}>
        <div className="mk-cta-band">
          <Flex direction="column" align="center" gap="4">
            <Heading as="h2" id={id} size={{ initial: "7", md: "8" }} align="center" className="mk-cta-title">
              {title}
            </Heading>
            <Text as="p" size="4" align="center" className="mk-cta-lede">
              {lede}
            </Text>
            <div className="mk-cta-action">{action}</div>
          </Flex>
        </div>
      </Container>
    </section>
  );
}
