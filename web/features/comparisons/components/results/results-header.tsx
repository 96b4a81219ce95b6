import { Button, Flex, Heading, Text } from "@radix-ui/themes";
import { ArrowLeftIcon } from "@radix-ui/react-icons";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { ComparisonDto } from "#server/modules/comparisons/model";
import type { BearerSource } from "../../api";
import { StatusBadge } from "../status-badge";
import { ExportShareButtons } from "./export-share";
import { FocusToggle } from "./focus-toggle";

export function ResultsHeader({ comparison, auth, share }: { comparison: ComparisonDto; auth: BearerSource; share?: ReactNode }) {
  return (
    <Flex justify="between" align="start" gap="4" wrap="wrap">
      <Flex gap="3" align="start" style={{ minWidth: 0, flex: "1 1 320px" }}>
        <Button variant="ghost" asChild mt="1">
          <Link to={`/comparison?id=${encodeURIComponent(comparison.id)}`}>
            <ArrowLeftIcon /> Back
          </Link>
        </Button>
        <Flex direction="column" gap="1" style={{ minWidth: 0 }}>
          <Flex align="center" gap="2" wrap="wrap">
            <Heading as="h1" size="7" style={{ overflowWrap: "anywhere" }}>
              {comparison.name}
            </Heading>
            <StatusBadge status={comparison.status} />
          </Flex>
          {comparison.description && (
            <Text color="gray" style={{ overflowWrap: "anywhere" }}>
              {comparison.description}
            </Text>
          )}
        </Flex>
      </Flex>
      <Flex gap="2" wrap="wrap">
        <FocusToggle />
        <ExportShareButtons comparisonId={comparison.id} name={comparison.name} auth={auth} share={share} />
      </Flex>
    </Flex>
  );
}
