import { Flex, Heading, Text } from "@radix-ui/themes";

export interface SectionHeadingProps {
  id: string;
  eyebrow: string;
  title: string;
  lede?: string;
  align?: "center" | "left";
}

export function SectionHeading({ id, eyebrow, title, lede, align = "center" }: SectionHeadingProps) {
  return (
    <Flex direction="column" gap="3" align={align === "center" ? "center" : "start"} className="mk-section-heading">
      <Text size="2" weight="bold" className="mk-eyebrow-text">
        {eyebrow}
      </Text>
      <Heading as="h2" id={id} size={{ initial: "7", md: "8" }} align={align}>
        {title}
      </Heading>
      {lede && (
        <Text as="p" size="4" color="gray" align={align} className="mk-section-lede">
          {lede}
        </Text>
      )}
    </Flex>
  );
}
