import { CopyIcon, DownloadIcon } from "@radix-ui/react-icons";
import { Badge, Button, Card, Code, DataList, Flex, Heading, Tabs, Text } from "@radix-ui/themes";
import type { ComponentDto } from "#server/modules/agents/model";
import { toast } from "#web/components/ui/toast";
import { RelativeTime } from "#web/components/ui/relative-time";

/** The preview document: static markup only, shown in a sandboxed frame that may run nothing. */
export function previewDocument(c: ComponentDto): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0;padding:24px;background:${c.tokens.background ?? "#fff"};}</style></head><body>${c.previewHtml}</body></html>`;
}

function download(c: ComponentDto) {
  const url = URL.createObjectURL(new Blob([c.code], { type: "text/plain;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = c.fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function copy(c: ComponentDto) {
  try {
    await navigator.clipboard.writeText(c.code);
    toast({ title: "Copied", description: `${c.fileName} is on your clipboard.` });
  } catch {
    toast({
      title: "Copy Failed",
      description: "The browser refused clipboard access. Select the source and copy it instead.",
      variant: "destructive",
    });
  }
}

const TOKEN_COLOURS = ["primary", "onPrimary", "background", "surface", "text", "muted"] as const;

export function ComponentViewer({ component: c }: { component: ComponentDto }) {
  return (
    <Card size="3" data-testid="component-viewer">
      <Flex direction="column" gap="4">
        <Flex justify="between" align="start" gap="3" wrap="wrap">
          <Flex direction="column" gap="1">
            <Heading as="h2" size="5">
              <Code variant="ghost" size="5">
                {c.fileName}
              </Code>
            </Heading>
            <Flex gap="2" wrap="wrap" align="center">
              <Badge variant="soft" highContrast>
                {c.kindLabel}
              </Badge>
              <Badge variant="outline" color="gray">
                Variant {c.variant} · {c.style}
              </Badge>
              <Badge variant="soft" highContrast color={c.sourceKind === "default" ? "amber" : "blue"}>
                {c.sourceKind === "default" ? c.sourceLabel : `Tokens from ${c.sourceLabel}`}
              </Badge>
              <Badge variant="soft" highContrast color={c.compiled ? "green" : "red"}>
                {c.compiled ? "Compiles" : "Does not compile"}
              </Badge>
              <Text size="1" color="gray">
                Generated <RelativeTime iso={c.createdAt} />
              </Text>
            </Flex>
          </Flex>
          <Flex gap="2">
            <Button variant="soft" onClick={() => void copy(c)}>
              <CopyIcon aria-hidden /> Copy
            </Button>
            <Button variant="soft" onClick={() => download(c)}>
              <DownloadIcon aria-hidden /> Download
            </Button>
          </Flex>
        </Flex>
        <Tabs.Root defaultValue="preview">
          <Tabs.List>
            <Tabs.Trigger value="preview">Preview</Tabs.Trigger>
            <Tabs.Trigger value="source">Source</Tabs.Trigger>
            <Tabs.Trigger value="tokens">Tokens</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="preview" style={{ paddingTop: 12 }}>
            <iframe
              key={c.id}
              title={`Preview of ${c.name}`}
              className="ag-preview"
              sandbox=""
              srcDoc={previewDocument(c)}
              style={{ height: c.kind === "hero" ? 460 : c.kind === "pricing_card" ? 520 : 200 }}
            />
          </Tabs.Content>
          <Tabs.Content value="source" style={{ paddingTop: 12 }}>
            <pre className="ag-code" tabIndex={0} aria-label={`Source of ${c.fileName}`}>
              <code>{c.code}</code>
            </pre>
          </Tabs.Content>
          <Tabs.Content value="tokens" style={{ paddingTop: 12 }}>
            <DataList.Root size="2">
              {TOKEN_COLOURS.map((k) => (
                <DataList.Item key={k}>
                  <DataList.Label>{k}</DataList.Label>
                  <DataList.Value>
                    <span className="ag-swatch" style={{ background: c.tokens[k] }} aria-hidden />
                    <Code variant="ghost">{c.tokens[k]}</Code>
                  </DataList.Value>
                </DataList.Item>
              ))}
              <DataList.Item>
                <DataList.Label>font</DataList.Label>
                <DataList.Value>
                  <Code variant="ghost">{c.tokens.fontFamily}</Code>
                </DataList.Value>
              </DataList.Item>
              <DataList.Item>
                <DataList.Label>radius / spacing unit</DataList.Label>
                <DataList.Value>
                  {c.tokens.radius}px / {c.tokens.space}px
                </DataList.Value>
              </DataList.Item>
              <DataList.Item>
                <DataList.Label>CTA contrast</DataList.Label>
                <DataList.Value>{c.features.ctaContrast}:1</DataList.Value>
              </DataList.Item>
            </DataList.Root>
          </Tabs.Content>
        </Tabs.Root>
      </Flex>
    </Card>
  );
}
