import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";

/**
 * The request's EntityManager, forked from the ORM's on first use by anything but the SQL layer: the reads
 * the bench measures run their statements through `sql()` (`db/sql.ts`), which asks an EntityManager only
 * for its transaction (a fork that does not exist yet has none) and its connection (every fork shares the
 * ORM's), so they never pay for the fork, a sixth of a single issue read's server time in its CPU profile
 * (bench/README.md, "The floor"). Anything else (the ORM's own means, `transactional`) forks it and from
 * then on talks to that one fork, so each request still has its own unit of work.
 */
export function requestEntityManager(orm: MikroORM): EntityManager {
  const global = orm.em;
  let fork: EntityManager | undefined;
  const real = () => {
    fork ??= global.fork();
    return fork;
  };
  const beforeFork: Partial<Record<PropertyKey, unknown>> = {
    getConnection: () => global.getConnection(),
    getTransactionContext: () => undefined,
  };
  return new Proxy(Object.create(Object.getPrototypeOf(global)) as EntityManager, {
    get(_target, prop) {
      if (!fork && prop in beforeFork) return beforeFork[prop];
      const em = real();
      const value = Reflect.get(em, prop, em);
      return typeof value === "function" ? value.bind(em) : value;
    },
    set(_target, prop, value) {
      return Reflect.set(real(), prop, value);
    },
    has(_target, prop) {
      return Reflect.has(real(), prop);
    },
  });
}
