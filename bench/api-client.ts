/** The few API calls the local benchmarks make, over fetch: no test helpers in what `npm run bench:*` ships. */
export function benchClient(url: string) {
  const post = (path: string, body: unknown) =>
    fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return {
    post,
    createPoll: async (title: string, options = ['a', 'b']) =>
      ((await (await post('/api/poll', { title, options })).json()) as { id: string }).id,
    /** The poll's total as counted now: `no-cache` skips the results' 2-second cache, as the tests do. */
    total: async (id: string) =>
      (
        (await (await fetch(`${url}/api/poll/${id}/results`, { headers: { 'cache-control': 'no-cache' } })).json()) as {
          total: number;
        }
      ).total,
  };
}
