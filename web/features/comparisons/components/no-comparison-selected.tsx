import { Card, Flex, Heading, Text } from "@radix-ui/themes";
import { MixerHorizontalIcon } from "@radix-ui/react-icons";

export function NoComparisonSelected() {
  return (
    <Card size="4">
      <Flex direction="column" align="center" gap="3" py="6">
        <MixerHorizontalIcon width="32" height="32" color="var(--gray-9)" aria-hidden />
        <Heading as="h2" size="5">
          No Comparison Selected
        </Heading>
        <Text color="gray" align="center" style={{ maxWidth: 420 }}>
          Pick a comparison from the list, or create a new one to start sizing up the competition.
        </Text>
      </Flex>
    </Card>
  );
}
