import { MagnifyingGlassIcon } from "@radix-ui/react-icons";
import { Dialog, Flex, Kbd, Text, TextField, VisuallyHidden } from "@radix-ui/themes";
import { useEffect, useId, useMemo, useState, type KeyboardEvent } from "react";
import { filterCommands, type PaletteCommand, type RecentPage } from "./commands";

export interface CommandPaletteProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  onNavigate(path: string): void;
  /** The page visited before this one in the session; shown as 'Recent' while the query is empty. */
  recent: RecentPage | null;
}

/** Ctrl+K / Cmd+K from anywhere, inputs included: it is a chord, so it never collides with typing. */
function useOpenHotkey(onOpen: () => void) {
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "k") {
        e.preventDefault();
        onOpen();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onOpen]);
}

/** Results keep their order; consecutive commands of one category share a group. */
function groupByCategory(results: PaletteCommand[]) {
  const groups: { category: string; commands: { command: PaletteCommand; index: number }[] }[] = [];
  results.forEach((command, index) => {
    const last = groups[groups.length - 1];
    if (last && last.category === command.category) last.commands.push({ command, index });
    else groups.push({ category: command.category, commands: [{ command, index }] });
  });
  return groups;
}

export function CommandPalette({ open, onOpenChange, onNavigate, recent }: CommandPaletteProps) {
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();
  const optionId = (c: PaletteCommand) => `${listId}-${c.id}`;

  const openPalette = useMemo(() => () => onOpenChange(true), [onOpenChange]);
  useOpenHotkey(openPalette);

  // Each opening starts fresh.
  useEffect(() => {
    if (open) {
      setQuery("");
      setActive(0);
    }
  }, [open]);

  const results = useMemo(() => filterCommands(query, recent), [query, recent]);
  const current = results[Math.min(active, results.length - 1)];

  useEffect(() => {
    if (!current) return;
    document.getElementById(optionId(current))?.scrollIntoView?.({ block: "nearest" });
  }, [current]);

  const run = (command: PaletteCommand) => {
    onOpenChange(false);
    onNavigate(command.to);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (results.length === 0) return;
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setActive((i) => (i + 1) % results.length);
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setActive((i) => (i - 1 + results.length) % results.length);
    } else if (e.key === "Home") {
      e.preventDefault();
      setActive(0);
    } else if (e.key === "End") {
      e.preventDefault();
      setActive(results.length - 1);
    } else if (e.key === "Enter" && current) {
      e.preventDefault();
      run(current);
    }
  };

  // Mounted only while open: closed, Radix keeps the dialog in the DOM until its exit animation
  // reports its end, and on a busy machine software-composited animation frames arrive late, so
  // a 100 ms fade held the palette (overlay, focus trap and all) on screen for most of a second.
  // Escape closes it at once; opening keeps its entrance animation.
  if (!open) return null;
  return (
    <Dialog.Root open onOpenChange={onOpenChange}>
      <Dialog.Content className="di-palette" maxWidth="560px" align="start" aria-describedby={undefined} size="2">
        <VisuallyHidden>
          <Dialog.Title>Command palette</Dialog.Title>
        </VisuallyHidden>
        <TextField.Root
          size="3"
          variant="soft"
          color="gray"
          placeholder="Type a command or search..."
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          role="combobox"
          aria-label="Search commands"
          aria-expanded={results.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={current ? optionId(current) : undefined}
          autoComplete="off"
          spellCheck={false}
        >
          <TextField.Slot>
            <MagnifyingGlassIcon width={18} height={18} />
          </TextField.Slot>
          <TextField.Slot>
            <Kbd size="1">Esc</Kbd>
          </TextField.Slot>
        </TextField.Root>

        <div id={listId} role="listbox" aria-label="Commands" className="di-palette-list">
          {results.length === 0 ? (
            <Text as="p" size="2" color="gray" className="di-palette-empty" role="status">
              No commands found for "{query.trim()}"
            </Text>
          ) : (
            groupByCategory(results).map((group) => (
              <div key={group.category} role="group" aria-labelledby={`${listId}-${group.category}`}>
                <div id={`${listId}-${group.category}`} className="di-palette-heading" role="presentation">
                  {group.category}
                </div>
                {group.commands.map(({ command: c, index }) => {
                  const Icon = c.icon;
                  const selected = c === current;
                  return (
                    <div
                      key={c.id}
                      id={optionId(c)}
                      role="option"
                      aria-selected={selected}
                      className="di-palette-option"
                      data-active={selected || undefined}
                      onMouseMove={() => setActive(index)}
                      onMouseDown={(e) => e.preventDefault()}
                      onClick={() => run(c)}
                    >
                      <span className="di-palette-icon" aria-hidden>
                        <Icon width={16} height={16} />
                      </span>
                      <Flex direction="column" style={{ minWidth: 0, flex: 1 }}>
                        <Text size="2" weight="medium" truncate>
                          {c.label}
                        </Text>
                        <Text size="1" color="gray" truncate>
                          {c.description}
                        </Text>
                      </Flex>
                      {c.shortcut && <Kbd size="1">{c.shortcut}</Kbd>}
                    </div>
                  );
                })}
              </div>
            ))
          )}
        </div>
        <Flex gap="3" justify="end" className="di-palette-footer" aria-hidden>
          <Text size="1" color="gray">
            <Kbd size="1">↑</Kbd> <Kbd size="1">↓</Kbd> to move
          </Text>
          <Text size="1" color="gray">
            <Kbd size="1">Enter</Kbd> to open
          </Text>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
