// SPDX-License-Identifier: EPL-2.0
// The link table under memory exhaustion: a link whose estimator could not
// be made is not left in the table without one (sync at a 50 MiB address
// space crashed in Session::finish on such a link, s38).

#include "session/link_table.h"

#include <gtest/gtest.h>

#include <new>

#include "hull/estimator_factory.h"
#include "session/domain_table.h"

namespace tracesync::session {
namespace {

TEST(LinkTable, AnEstimatorThatCannotBeMadeLeavesNoLinkWithoutOne) {
  DomainTable domains;
  const DomainIndex alpha = domains.intern("alpha", "alpha");
  const DomainIndex beta = domains.intern("beta", "beta");
  const hull::EstimatorOptions options;
  int made = 0;
  LinkTable links(options, [&]() -> std::unique_ptr<hull::LinkEstimator> {
    if (made++ == 0) throw std::bad_alloc();
    return hull::make_estimator(options);
  });
  bool a_first = false;
  EXPECT_THROW(links.between(domains, alpha, beta, &a_first), std::bad_alloc);
  EXPECT_EQ(links.size(), 0u);
  EXPECT_EQ(links.find(alpha, beta), nullptr);
  int without = 0;
  links.for_each_mutable([&](Link& link) { without += link.estimator == nullptr; });
  EXPECT_EQ(without, 0);

  Link& link = links.between(domains, beta, alpha, &a_first);  // memory again
  ASSERT_NE(link.estimator, nullptr);
  EXPECT_EQ(links.size(), 1u);
  EXPECT_EQ(links.find(alpha, beta), &link);
  EXPECT_EQ(&links.between(domains, alpha, beta, &a_first), &link);  // found, not made again
  EXPECT_EQ(made, 2);
}

}  // namespace
}  // namespace tracesync::session
