import { ChevronDownIcon } from "@radix-ui/react-icons";
import { Container, Flex, Text } from "@radix-ui/themes";
import { FAQ } from "../content";
import { SectionHeading } from "./section-heading";

/** Native <details>: keyboard- and screen-reader-friendly, and it works before hydration. */
export function Faq() {
  return (
    <section className="mk-section" aria-labelledby="faq-title">
      <Container size="3" px={{ initial: "4", md: "6" }}>
        <SectionHeading id="faq-title" eyebrow="FAQ" title="Questions, answered" />
        <Flex direction="column" gap="3" mt="7">
          {FAQ.map((item) => (
            <details key={item.q} className="mk-faq-item">
              <summary>
                <Text size="3" weight="medium">
                  {item.q}
                </Text>
                <ChevronDownIcon className="mk-faq-chevron" aria-hidden />
              </summary>
              <Text as="p" size="2" color="gray" className="mk-faq-answer">
                {item.a}
              </Text>
            </details>
          ))}
        </Flex>
      </Container>
    </section>
  );
}
