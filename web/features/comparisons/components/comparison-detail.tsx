import { Button, Callout, Card, Flex, Skeleton } from "@radix-ui/themes";
import { ExclamationTriangleIcon } from "@radix-ui/react-icons";
import { type ReactNode, useEffect, useState } from "react";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { useCanEdit } from "#web/lib/workspace";
import { deleteComparison } from "../api";
import type { ComparisonDto, TargetDto } from "#server/modules/comparisons/model";
import { canDeleteTarget, isRunning } from "../status";
import { type ComparisonDetailData, useComparisonDetail } from "../use-comparison-detail";
import { AddTargetForm } from "./add-target-form";
import { ComparisonHeader } from "./comparison-header";
import { ProgressCard } from "./progress-card";
import { TargetList } from "./target-list";

interface Props {
  id: string;
  initial: ComparisonDetailData | null;
  /** Tells the list beside it when this comparison's row changed (status, target count). */
  onChange(c: ComparisonDto): void;
  /** What each site's card shows under it (the route composes the pages feature in). */
  siteExtra?(target: TargetDto, editable: boolean): ReactNode;
  /** After the comparison was deleted; without it there is no Delete button. */
  onDeleted?(id: string): void;
}

/** Render with key={id}: the state belongs to one comparison. */
export function ComparisonDetail({ id, initial, onChange, siteExtra, onDeleted }: Props) {
  const { data, loadFailed, starting, reload, start, add, remove, setConsent, setColorSchemes } = useComparisonDetail(id, initial);
  const { canEdit } = useCanEdit();
  const [deleting, setDeleting] = useState(false);
  const comparison = data?.comparison;
  useEffect(() => {
    if (comparison) onChange(comparison);
  }, [comparison, onChange]);

  if (!data) {
    if (loadFailed)
      return (
        <Callout.Root color="red">
          <Callout.Icon>
            <ExclamationTriangleIcon />
          </Callout.Icon>
          <Callout.Text>
            Couldn't load this comparison.{" "}
            <Button size="1" variant="soft" onClick={() => void reload().catch(() => {})}>
              Try again
            </Button>
          </Callout.Text>
        </Callout.Root>
      );
    return (
      <Flex direction="column" gap="4" aria-busy="true" aria-label="Loading comparison">
        <Card size="3">
          <Skeleton height="28px" width="40%" />
        </Card>
        <Card size="3">
          <Skeleton height="80px" />
        </Card>
      </Flex>
    );
  }

  const running = isRunning(data.comparison.status);
  const name = data.comparison.name;
  const destroy = async () => {
    setDeleting(true);
    try {
      await deleteComparison(id);
      toast({ title: "Comparison Deleted", description: `${name} and its runs are gone.` });
      onDeleted?.(id);
    } catch (err) {
      toast({ title: "Delete Failed", description: errorMessage(err, "Could not delete the comparison."), variant: "destructive" });
      setDeleting(false);
    }
  };
  return (
    <Flex direction="column" gap="4">
      <ComparisonHeader
        comparison={data.comparison}
        targetCount={data.targets.length}
        starting={starting}
        onStart={start}
        onConsent={setConsent}
        onColorSchemes={setColorSchemes}
        onDelete={onDeleted ? () => void destroy() : undefined}
        deleting={deleting}
      />
      {running && <ProgressCard progress={data.comparison.progress} />}
      <AddTargetForm onAdd={add} />
      <TargetList
        targets={data.targets}
        canDelete={canEdit && canDeleteTarget(data.comparison.status)}
        onDelete={remove}
        siteExtra={siteExtra}
      />
    </Flex>
  );
}
