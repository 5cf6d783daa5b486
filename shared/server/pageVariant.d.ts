export type PageQuery = Readonly<Record<string, readonly string[]>>;
export function assertValidQuery(query: PageQuery | undefined): void;
export function variantKey(query: PageQuery | undefined, search: string | URLSearchParams): string;
export function serverVariantKey(query: PageQuery | undefined, rawSearch: string): string | null;
export function variantPatterns(query: PageQuery | undefined): {
  undecidable: string[];
  params: { name: string; repeated: string; value: (groupName: string) => string }[];
};
export function allVariants(query: PageQuery | undefined): { key: string; search: string }[];
export const DEFAULT_VALUE: string;
export const SEPARATOR: string;
export const SLUG: RegExp;
