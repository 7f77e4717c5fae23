import { describe, expect, it } from 'vitest';
import { parseSource } from '../../../../src/core/codegraph/refresh.js';
import { type RepoFs, resolveContext, resolveSource } from '../../../../src/core/codegraph/resolve.js';

/** A repository held in a map: path → text (folders exist when a file is under them). */
function mapRepo(files: Record<string, string>): RepoFs {
  return {
    exists: (rel) => rel in files || Object.keys(files).some((f) => f.startsWith(`${rel}/`)),
    read: (rel) => files[rel] ?? null,
  };
}

function resolve(files: Record<string, string>, path: string) {
  const fs = mapRepo(files);
  return resolveSource(resolveContext(fs), path, parseSource(path, files[path]!)!);
}

describe('resolving imports to module nodes', () => {
  it('TS/JS: relative paths become repo paths without extension or /index; packages their name', () => {
    const files = {
      'src/checkout.ts': `import Stripe from 'stripe';
import { chargeCard } from './pay/index.js';
import { Button } from '@acme/ui/button';
import { readFileSync } from 'node:fs';
import path from 'path';
import { db } from '@/lib/db';
import { x } from '../../outside.js';
import { self } from './checkout';`,
    };
    const r = resolve(files, 'src/checkout.ts');
    expect(r.own).toEqual(['src/checkout']);
    expect(r.imports).toEqual([
      { module: 'npm:stripe', names: [] },
      { module: 'src/pay', names: ['chargeCard'] },
      { module: 'npm:@acme/ui', names: ['Button'] },
      { module: 'alias:@/lib/db', names: ['db'] },
    ]);
    expect(resolve({ 'src/pay/index.ts': 'export const x = 1;' }, 'src/pay/index.ts').own).toEqual([
      'src/pay',
    ]);
  });

  it('Python: relative and absolute imports found on disk are repo paths; the rest a package', () => {
    const files = {
      'backend/app/__init__.py': '',
      'backend/app/models.py': 'class Order: pass',
      'backend/app/forms.py': '',
      'backend/app/views.py': `import os
import requests.adapters
from app.models import Order
from . import forms, helpers
from .models import Order as O
from ..settings import DEBUG`,
    };
    const r = resolve(files, 'backend/app/views.py');
    expect(r.own).toEqual(['backend/app/views']);
    expect(r.imports).toEqual([
      { module: 'py:requests', names: [] },
      { module: 'backend/app/models', names: ['Order'] },
      { module: 'backend/app', names: ['helpers'] },
      { module: 'backend/app/forms', names: [] },
      { module: 'backend/settings', names: ['DEBUG'] },
    ]);
    expect(resolve(files, 'backend/app/__init__.py').own).toEqual(['backend/app']);
  });

  it('Go: packages of this module are folders; the standard library is left out', () => {
    const files = {
      'go.mod': 'module example.com/shop\n\ngo 1.22\n',
      'internal/pay/charge.go': `package pay
import (
  "fmt"
  "example.com/shop/internal/db"
  "github.com/stripe/stripe-go/v76"
)`,
    };
    const r = resolve(files, 'internal/pay/charge.go');
    expect(r.own).toEqual(['internal/pay']);
    expect(r.imports).toEqual([
      { module: 'internal/db', names: [] },
      { module: 'go:github.com/stripe/stripe-go/v76', names: [] },
    ]);
  });

  it('Rust: crate, self and super paths resolve to module files; other crates by name', () => {
    const files = {
      'Cargo.toml': '[package]\nname = "shop"',
      'src/lib.rs': 'mod pay;\nmod orders;',
      'src/pay.rs': '',
      'src/pay/refund.rs': '',
      'src/orders/mod.rs': `use crate::pay::refund::Refund;
use crate::pay::charge_card;
use super::pay;
use self::lines::OrderLine;
use std::collections::HashMap;
use serde::Deserialize;`,
      'src/orders/lines.rs': '',
    };
    const r = resolve(files, 'src/orders/mod.rs');
    expect(r.own).toEqual(['src/orders']);
    expect(r.imports).toEqual([
      { module: 'src/pay/refund', names: ['Refund'] },
      { module: 'src/pay', names: ['charge_card'] }, // `use super::pay` meets the same module
      { module: 'src/orders/lines', names: ['OrderLine'] },
      { module: 'rust:serde', names: ['Deserialize'] },
    ]);
    const lib = resolve(files, 'src/lib.rs');
    expect(lib.own).toEqual(['src']);
    expect(lib.imports).toEqual([
      { module: 'src/pay', names: [] },
      { module: 'src/orders', names: [] },
    ]);
  });
});
