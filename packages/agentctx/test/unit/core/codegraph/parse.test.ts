import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseGo } from '../../../../src/core/codegraph/parse-go.js';
import { parsePython } from '../../../../src/core/codegraph/parse-python.js';
import { parseRust, useLeaves } from '../../../../src/core/codegraph/parse-rust.js';
import { parseTs } from '../../../../src/core/codegraph/parse-ts.js';
import { parseSource } from '../../../../src/core/codegraph/refresh.js';

const specs = (p: { imports: { spec: string }[] }) => p.imports.map((i) => i.spec);
const namesOf = (p: { imports: { spec: string; names: string[] }[] }, spec: string) =>
  p.imports.find((i) => i.spec === spec)?.names;

describe('TypeScript / JavaScript', () => {
  const src = `
import Stripe from 'stripe';
import type { Order } from "./types.js";
import {
  chargeCard,
  refund as undo,
  type Money,
} from '../pay/index.ts';
import * as path from 'node:path';
import './polyfill';
export { helper } from './helpers.js';
export * from '@acme/ui/button';
const lazy = await import('./lazy.js');
const cjs = require("lodash/merge");
// import { ghost } from './commented-out';
/* import { gone } from './block';
*/
const url = 'http://example.com'; import x from 'after-url';
export async function checkout(order: Order) {}
export default class CartService {}
export const TAX_RATE = 0.2;
export interface CartLine {}
export type Cents = number;
export enum Currency {}
function internal() {}
export function go() {}
`;
  const p = parseTs(src);
  it('finds every import form, with the names taken', () => {
    expect(specs(p).sort()).toEqual(
      [
        'stripe',
        './types.js',
        '../pay/index.ts',
        'node:path',
        './polyfill',
        './helpers.js',
        '@acme/ui/button',
        './lazy.js',
        'lodash/merge',
        'after-url',
      ].sort(),
    );
    expect(namesOf(p, '../pay/index.ts')).toEqual(['chargeCard', 'refund', 'Money']);
    expect(namesOf(p, './types.js')).toEqual(['Order']);
    expect(namesOf(p, 'stripe')).toEqual([]);
  });
  it('takes exported declarations of four characters or more as symbols', () => {
    expect(p.symbols).toEqual(['checkout', 'CartService', 'TAX_RATE', 'CartLine', 'Cents', 'Currency']);
  });
});

describe('Python', () => {
  const p = parsePython(`
import os, sys
import app.models as m
from . import views, forms
from ..core.db import (
    Session,
    engine as eng,
)
from requests import get  # the HTTP client
    # from ghost import nothing
def create_order(): pass
async def fetch_orders(): pass
class OrderService:
    def inner_method(self): pass
def _private(): pass
`);
  it('finds imports and from-imports, parenthesised lists too', () => {
    expect(specs(p)).toEqual(['os', 'sys', 'app.models', '.', '..core.db', 'requests']);
    expect(namesOf(p, '.')).toEqual(['views', 'forms']);
    expect(namesOf(p, '..core.db')).toEqual(['Session', 'engine']);
    expect(namesOf(p, 'requests')).toEqual(['get']);
  });
  it('takes top-level public defs and classes as symbols', () => {
    expect(p.symbols).toEqual(['create_order', 'fetch_orders', 'OrderService']);
  });
});

describe('Go', () => {
  const p = parseGo(`package pay
import "fmt"
import stripe "github.com/stripe/stripe-go/v76"
import (
	"net/http"
	db "example.com/shop/internal/db"
	// "example.com/ghost"
)
func ChargeCard(amount int) error { return nil }
func (s *Service) Refund(id string) error { return nil }
func helper[T any](x T) {}
type Service struct{}
`);
  it('finds single and grouped imports', () => {
    expect(specs(p)).toEqual([
      'fmt',
      'github.com/stripe/stripe-go/v76',
      'net/http',
      'example.com/shop/internal/db',
    ]);
  });
  it('takes top-level funcs, methods and types as symbols', () => {
    expect(p.symbols).toEqual(['ChargeCard', 'Refund', 'helper', 'Service']);
  });
});

describe('Rust', () => {
  it('expands use trees to their leaves', () => {
    expect(useLeaves('crate::pay::{charge, refund::{self, Refund as R}, *}')).toEqual([
      ['crate', 'pay', 'charge'],
      ['crate', 'pay', 'refund'],
      ['crate', 'pay', 'refund', 'Refund'],
      ['crate', 'pay'],
    ]);
    expect(useLeaves('serde :: { Deserialize , Serialize }')).toEqual([
      ['serde', 'Deserialize'],
      ['serde', 'Serialize'],
    ]);
    expect(useLeaves('std::io as stdio')).toEqual([['std', 'io']]);
  });
  const p = parseRust(`
use crate::pay::{charge_card, Refund};
pub use super::db::Pool;
use serde::Deserialize;
extern crate libc;
mod orders;
pub mod billing;
pub(crate) mod inline { }
pub fn checkout_cart() {}
pub struct OrderLine;
fn top_level_private() {}
impl OrderLine {
    pub fn total_cents(&self) -> u64 { 0 }
    fn hidden(&self) {}
}
`);
  it('finds use leaves, extern crates and mod declarations', () => {
    expect(specs(p)).toEqual([
      'crate::pay::charge_card',
      'crate::pay::Refund',
      'super::db::Pool',
      'serde::Deserialize',
      'libc',
    ]);
    expect(p.childModules).toEqual(['orders', 'billing']);
  });
  it('takes pub items and top-level fns as symbols', () => {
    expect(p.symbols).toEqual(['checkout_cart', 'OrderLine', 'top_level_private', 'total_cents']);
  });
});

describe('any text', () => {
  it('never throws, and every import spec and symbol comes from the text', () => {
    const files = ['a.ts', 'b.py', 'c.go', 'd.rs', 'e.md'];
    const chunk = fc.constantFrom(
      'import ',
      'from ',
      ' import ',
      'use ',
      '::',
      '{',
      '}',
      '(',
      ')',
      "'",
      '"',
      ';',
      '\n',
      ' ',
      'export function ',
      'def ',
      'pub fn ',
      'func ',
      'mod ',
      'require(',
      '/*',
      '*/',
      '//',
      '#',
      'stripe',
      './pay',
      'crate',
      'self',
      'as ',
      ',',
      'chargeCard',
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...files),
        fc.array(fc.oneof(chunk, fc.string()), { maxLength: 60 }),
        (f, parts) => {
          const text = parts.join('');
          const p = parseSource(f, text);
          if (f.endsWith('.md')) return p === null;
          for (const i of p!.imports) {
            for (const seg of i.spec.split('::')) expect(text).toContain(seg);
            for (const n of i.names) expect(text).toContain(n);
          }
          for (const s of p!.symbols) expect(text).toContain(s);
          return true;
        },
      ),
      { seed: 1411, numRuns: 600 },
    );
  });
});
