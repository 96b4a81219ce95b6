import { Card, Flex, Heading, Text } from "@radix-ui/themes";
import { CameraIcon } from "@radix-ui/react-icons";
import type { Viewport } from "#server/modules/capture/model";
import type { ComparisonStatus } from "#server/modules/comparisons/model";

export function NotEnoughSnapshots({ viewport, status }: { viewport: Viewport; status: ComparisonStatus }) {
  return (
    <Card size="4">
      <Flex direction="column" align="center" gap="2" py="6">
        <CameraIcon width="32" height="32" color="var(--gray-9)" aria-hidden />
        <Heading as="h2" size="5">
          Not enough snapshots
        </Heading>
        <Text color="gray">Need at least 2 websites for {viewport} comparison.</Text>
        <Text color="gray" size="2" data-testid="snapshot-status-line">
          {status === "completed"
            ? "No screenshots were captured, possibly due to access restrictions or technical issues."
            : "Start the analysis to generate comparison data."}
        </Text>
      </Flex>
    </Card>
  );
}
