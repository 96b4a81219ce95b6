import { Card, Flex, Heading, Progress, Spinner, Text } from "@radix-ui/themes";
import type { ComparisonProgress } from "#server/modules/comparisons/model";
import { progressPercent } from "../status";

/** Real progress: pages captured of the total, and what the worker is doing now. */
export function ProgressCard({ progress }: { progress: ComparisonProgress | null }) {
  const percent = progressPercent(progress);
  return (
    <Card size="3" role="status" aria-live="polite">
      <Flex direction="column" gap="3">
        <Flex align="center" gap="2">
          <Spinner />
          <Heading as="h3" size="4">
            Analysis in Progress
          </Heading>
        </Flex>
        <Progress value={percent} size="3" aria-label="Analysis progress" aria-valuetext={`${percent}%`} />
        <Flex justify="between" gap="3" wrap="wrap">
          <Text size="2" color="gray" data-testid="progress-stage">
            {progress?.stage || "Warming up the browsers..."}
          </Text>
          <Text size="2" weight="medium" data-testid="progress-count">
            {progress ? `${progress.done} of ${progress.total} pages done · ${percent}%` : "Queued"}
          </Text>
        </Flex>
      </Flex>
    </Card>
  );
}
