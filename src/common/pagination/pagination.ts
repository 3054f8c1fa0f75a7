import { type Type as ClassType } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ToInteger } from '../validation/transforms.js';
import { sharedAnswer } from '../serialization/shared-answer.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
export const MAX_PAGE = 100_000;

/**
 * `page` (1-based) and `limit` of every list endpoint. Out-of-range values are a 400, never
 * clamped. Extend it (or use it with IntersectionType) for endpoint-specific filters.
 */
export class PageQueryDto {
  @ApiProperty({ required: false, minimum: 1, maximum: MAX_PAGE, default: 1, description: 'Page number, starting at 1.', type: Number })
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page?: number;

  @ApiProperty({
    required: false,
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    description: `Items per page (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE}).`,
    type: Number,
  })
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;
}

export interface PageRequest {
  page: number;
  limit: number;
  offset: number;
}

export function pageRequest(q: Pick<PageQueryDto, 'page' | 'limit'>): PageRequest {
  const page = q.page ?? 1;
  const limit = q.limit ?? DEFAULT_PAGE_SIZE;
  return { page, limit, offset: (page - 1) * limit };
}

/** The one shape of every paginated response. */
export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  total: number;
  hasNextPage: boolean;
}

export function toPage<T>(items: T[], total: number, req: PageRequest): Page<T> {
  return { items, page: req.page, limit: req.limit, total, hasNextPage: req.offset + items.length < total };
}

/**
 * A page of rows that a read cache keeps for every caller (`rows` is the cached value): the same
 * answer object while the rows are kept, its JSON made once (`sharedAnswer`).
 */
export function sharedPage<T>(rows: { items: T[]; total: number }, req: PageRequest): Page<T> {
  return sharedAnswer(
    rows,
    'page',
    (r) => toPage(r.items, r.total, req),
    (kept) => kept.page === req.page && kept.limit === req.limit,
  );
}

const pageClasses = new Map<ClassType, ClassType>();

/**
 * The Swagger class of `Page<Item>`: `PaginatedXxx` with `items: Xxx[]` and the page fields.
 * Use as `@ApiOkResponse({ type: Paginated(ItemDto) })`.
 */
export function Paginated<T>(item: ClassType<T>): ClassType<Page<T>> {
  const existing = pageClasses.get(item);
  if (existing) return existing as ClassType<Page<T>>;
  class PageDto implements Page<T> {
    @ApiProperty({ type: item, isArray: true })
    items: T[];

    @ApiProperty({ example: 1, description: 'The page returned (1-based).' })
    page: number;

    @ApiProperty({ example: DEFAULT_PAGE_SIZE, description: 'The page size used.' })
    limit: number;

    @ApiProperty({ example: 42, description: 'Number of items over all pages.' })
    total: number;

    @ApiProperty({ example: true, description: 'Whether a later page has items.' })
    hasNextPage: boolean;
  }
  Object.defineProperty(PageDto, 'name', { value: `Paginated${item.name.replace(/Dto$/, '')}` });
  pageClasses.set(item, PageDto);
  return PageDto;
}
