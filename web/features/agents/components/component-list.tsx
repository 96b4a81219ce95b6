import { Flex, Text } from "@radix-ui/themes";
import type { ComponentDto } from "#server/modules/agents/model";

/** Newest first; grouped by where the tokens came from. */
export function ComponentList({
  components,
  selectedId,
  onSelect,
}: {
  components: ComponentDto[];
  selectedId: string | null;
  onSelect(id: string): void;
}) {
  const groups = new Map<string, ComponentDto[]>();
  for (const c of components) groups.set(c.sourceLabel, [...(groups.get(c.sourceLabel) ?? []), c]);
  return (
    <nav aria-label="Generated components">
      <Flex direction="column" gap="4">
        {[...groups].map(([source, list]) => (
          <Flex direction="column" gap="2" key={source}>
            <Text size="1" weight="bold" color="gray">
              {source}
            </Text>
            <ul className="ag-list">
              {list.map((c) => (
                <li key={c.id}>
                  <button type="button" className="ag-list-button" aria-pressed={c.id === selectedId} onClick={() => onSelect(c.id)}>
                    <Text size="2" weight="medium">
                      {c.name}
                    </Text>
                    <Text size="1" color="gray">
                      {c.kindLabel} · variant {c.variant} ({c.style})
                    </Text>
                  </button>
                </li>
              ))}
            </ul>
          </Flex>
        ))}
      </Flex>
    </nav>
  );
}
